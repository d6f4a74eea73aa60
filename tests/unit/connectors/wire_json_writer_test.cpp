#include "datapipelines/connectors/wire/wire_json_writer.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "datapipelines/connectors/type_mapper.hpp"
#include "datapipelines/connectors/wire/wire_encoder.hpp"

namespace dp {
namespace {

const std::vector<CanonicalType> kAllTypes = {
    CanonicalType::kNull,       CanonicalType::kBoolean,  CanonicalType::kInteger,
    CanonicalType::kBigInteger, CanonicalType::kDecimal,  CanonicalType::kBigDecimal,
    CanonicalType::kString,     CanonicalType::kBinary,   CanonicalType::kDate,
    CanonicalType::kTime,       CanonicalType::kTimestamp};

// What the writer produced, or the error it raised (the Json path must match either way).
std::string Written(WireJsonWriter& writer, const TypeMapping& mapping,
                    std::optional<std::string_view> text) {
  std::string out = "prefix,";
  try {
    writer.AppendValue(mapping, text, out);
  } catch (const Json::exception& error) {
    return std::string("error: ") + error.what();
  }
  EXPECT_EQ(out.substr(0, 7), "prefix,");  // appends, never overwrites
  return out.substr(7);
}

std::string Dumped(const TypeMapping& mapping, std::optional<std::string_view> text) {
  try {
    return WireEncoder::Encode(mapping, text).dump();
  } catch (const Json::exception& error) {
    return std::string("error: ") + error.what();
  }
}

void ExpectSame(WireJsonWriter& writer, const TypeMapping& mapping,
                std::optional<std::string_view> text) {
  EXPECT_EQ(Written(writer, mapping, text), Dumped(mapping, text))
      << ToString(mapping.type) << " of "
      << Json(std::string(text.value_or("<null>")))
             .dump(-1, ' ', true, Json::error_handler_t::replace);
}

// The driver-side spelling of a case literal: quotes and casts stripped, as near as a unit
// test can get without the engine (the integration type cases cover the real driver text).
std::string LiteralText(std::string literal) {
  auto open = literal.find('\'');
  auto close = literal.rfind('\'');
  if (open != std::string::npos && close > open) return literal.substr(open + 1, close - open - 1);
  return literal;
}

TEST(WireJsonWriterTest, MatchesTheJsonEncodingForEveryTypeCase) {
  WireJsonWriter writer({});
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(DP_SOURCE_DIR) +
                                                               "/tests/connector_cases/types")) {
    std::ifstream in(entry.path());
    Json file = Json::parse(in);
    for (const auto& c : file["cases"]) {
      auto type = ParseCanonicalType(c["type"].get<std::string>());
      ASSERT_TRUE(type) << c.dump();
      TypeMapping mapping = Simple(*type);
      if (c.contains("precision")) mapping.precision = c["precision"].get<int>();
      if (c.contains("scale")) mapping.scale = c["scale"].get<int>();
      std::vector<std::string> inputs = {LiteralText(c["literal"].get<std::string>())};
      const Json& wire = c["wire"];
      inputs.push_back(wire.is_string() ? wire.get<std::string>() : wire.dump());
      for (const auto& text : inputs) {
        ExpectSame(writer, mapping, text);
        ++compared;
      }
      ExpectSame(writer, mapping, std::nullopt);
    }
  }
  EXPECT_GT(compared, 200);
}

TEST(WireJsonWriterTest, EdgeTextsMatchForEveryType) {
  const std::vector<std::string> texts = {
      "",
      "0",
      "-0",
      "+5",
      "+1.5",
      " 1.5",
      "1.5 ",
      "0x10",
      "-0x1p3",
      "1e400",
      "-1e400",
      "1e-320",
      "1E5",
      ".5",
      "5.",
      "123456789012345678901234567890.5",
      "9223372036854775807",
      "9223372036854775808",
      "-9223372036854775808",
      "NaN",
      "Infinity",
      "-inf",
      "t",
      "f",
      "true",
      "FALSE",
      "2",
      std::string("\x01", 1),
      std::string("\0", 1),
      "2026-08-05",
      "2026-02-30",
      "0000-01-01 00:30:00+01",
      "9999-12-31 23:30:00-01",
      "2026-08-05 14:30:00.123456789-05:30:15",
      "24:00:00",
      "14:30:00+02",
      "14:30",
      "abc",
      "quote \" back \\ slash / tab \t nl \n cr \r ff \f bs \b del \x7f",
      std::string("nul \0 and \x1f", 12),
      "héllo — ✓ 😀",
      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"};
  WireJsonWriter writer({});
  for (CanonicalType type : kAllTypes) {
    for (const auto& text : texts) ExpectSame(writer, Simple(type), text);
  }
}

TEST(WireJsonWriterTest, InvalidUtf8FailsExactlyAsDumpDoes) {
  const std::vector<std::string> invalid = {"\x80",
                                            "a\xbf",
                                            "\xc0\x80",
                                            "\xc1\xbf",
                                            "\xe0\x80\x80",
                                            "\xed\xa0\x80",
                                            "\xf0\x80\x80\x80",
                                            "\xf4\x90\x80\x80",
                                            "\xf5\x80\x80\x80",
                                            "\xff",
                                            "ok \xc3",
                                            "ok \xe2\x82",
                                            "\xe2\x28\xa1"};
  WireJsonWriter writer({});
  for (const auto& text : invalid) {
    std::string written = Written(writer, Simple(CanonicalType::kString), text);
    EXPECT_EQ(written.rfind("error: ", 0), 0u) << written;
    ExpectSame(writer, Simple(CanonicalType::kString), text);
  }
}

TEST(WireJsonWriterTest, RandomBytesMatchForEveryType) {
  std::mt19937 random(20261130);
  // Biased towards the bytes that matter: controls, quotes, UTF-8 leads and continuations.
  const std::string alphabet = std::string("\x00\x01\x1f\"\\/ 09.-+:TZe\x7f", 16) +
                               "\x80\xbf\xc2\xc3\xe0\xe2\xed\xf0\xf4\xf5\xa0\x9f\x82";
  WireJsonWriter writer({});
  for (int round = 0; round < 20000; ++round) {
    std::string text(random() % 12, '\0');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    ExpectSame(writer, Simple(kAllTypes[round % kAllTypes.size()]), text);
  }
}

TEST(WireJsonWriterTest, RowsMatchToWireObjectAndArray) {
  std::vector<ColumnSchema> columns(5);
  columns[0].name = "id";
  columns[0].mapping = Simple(CanonicalType::kBigInteger);
  columns[1].name = "a\"b\n";
  columns[1].mapping = Simple(CanonicalType::kDecimal);
  columns[2].name = "id";
  columns[2].mapping = Simple(CanonicalType::kTimestamp);  // repeated name
  columns[3].name = "ünï";
  columns[3].mapping = Simple(CanonicalType::kBinary);
  columns[4].name = "flag";
  columns[4].mapping = Simple(CanonicalType::kBoolean);
  std::vector<std::optional<std::string_view>> cells = {
      "42", "2.5e-7", "2026-08-05 14:30:00-05", std::string_view("\xde\xad\0", 3), std::nullopt};
  RowView row(columns, cells);
  WireJsonWriter writer(columns);
  std::string out;
  writer.AppendObject(row, out);
  EXPECT_EQ(out, row.ToWireObject().dump());
  EXPECT_EQ(out,
            R"({"id":"2026-08-05T19:30:00.000000Z","a\"b\n":2.5e-07,"ünï":"3q0A","flag":null})");
  out.clear();
  writer.AppendArray(row, out);
  EXPECT_EQ(out, row.ToWireArray().dump());
  // Rows append: a payload can be built row after row in one buffer.
  std::string two;
  writer.AppendObject(row, two);
  two += ',';
  writer.AppendObject(row, two);
  EXPECT_EQ(two, row.ToWireObject().dump() + "," + row.ToWireObject().dump());
}

}  // namespace
}  // namespace dp
