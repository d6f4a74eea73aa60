// The hand-written Arrow IPC stream writer: framing checked byte by byte here, and values
// proven against the reference apache-arrow reader (tools/arrow-check/check.mjs) when node
// and its node_modules are present.
#include "datapipelines/results/arrow_ipc_stream.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "results/arrow_temporal.hpp"

namespace dp {
namespace {

// ---- a minimal FlatBuffers / IPC reader, independent of the writer's code ----

uint32_t U32(const std::string& b, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b.at(at + i));
  return v;
}
uint16_t U16(const std::string& b, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(b.at(at)) |
                               (static_cast<uint8_t>(b.at(at + 1)) << 8));
}
int64_t I64(const std::string& b, size_t at) {
  return static_cast<int64_t>(static_cast<uint64_t>(U32(b, at)) |
                              (static_cast<uint64_t>(U32(b, at + 4)) << 32));
}

// Position of a table field's inline data, or 0 when the field is absent.
size_t FieldAt(const std::string& fb, size_t table, int slot) {
  const size_t vtable = table - static_cast<int32_t>(U32(fb, table));
  const size_t entry = 4 + 2 * static_cast<size_t>(slot);
  if (entry >= U16(fb, vtable)) return 0;
  const uint16_t offset = U16(fb, vtable + entry);
  return offset ? table + offset : 0;
}
size_t Deref(const std::string& fb, size_t at) { return at + U32(fb, at); }

struct Message {
  std::string metadata;  // the flatbuffer (with padding)
  std::string body;
  size_t metadata_start = 0;  // in the stream
  size_t body_start = 0;
  int header_type = 0;
  int version = 0;
  size_t header = 0;  // header table position in metadata
};

struct Stream {
  std::vector<Message> messages;
  bool ended = false;  // saw 0xFFFFFFFF 0x00000000 as the last 8 bytes
};

// Walks the encapsulated messages, asserting the framing invariants as it goes.
Stream ParseStream(const std::string& bytes) {
  Stream stream;
  size_t pos = 0;
  while (pos < bytes.size()) {
    EXPECT_EQ(pos % 8, 0u) << "message not 8-aligned";
    EXPECT_EQ(U32(bytes, pos), 0xFFFFFFFFu) << "missing continuation marker at " << pos;
    const uint32_t length = U32(bytes, pos + 4);
    if (length == 0) {
      stream.ended = pos + 8 == bytes.size();
      break;
    }
    EXPECT_EQ((pos + 8 + length) % 8, 0u) << "metadata length leaves the body unaligned";
    Message message;
    message.metadata_start = pos + 8;
    message.metadata = bytes.substr(pos + 8, length);
    const std::string& fb = message.metadata;
    const size_t root = U32(fb, 0);
    message.version = static_cast<int16_t>(U16(fb, FieldAt(fb, root, 0)));
    message.header_type = static_cast<uint8_t>(fb.at(FieldAt(fb, root, 1)));
    message.header = Deref(fb, FieldAt(fb, root, 2));
    const size_t body_field = FieldAt(fb, root, 3);
    const int64_t body_length = body_field ? I64(fb, body_field) : 0;
    EXPECT_EQ(body_length % 8, 0) << "body not padded to 8";
    message.body_start = pos + 8 + length;
    message.body = bytes.substr(message.body_start, static_cast<size_t>(body_length));
    pos = message.body_start + static_cast<size_t>(body_length);
    stream.messages.push_back(std::move(message));
  }
  return stream;
}

struct BufferRef {
  int64_t offset;
  int64_t length;
};
struct NodeRef {
  int64_t length;
  int64_t null_count;
};

std::vector<BufferRef> Buffers(const Message& batch) {
  const std::string& fb = batch.metadata;
  const size_t vector = Deref(fb, FieldAt(fb, batch.header, 2));
  EXPECT_EQ((vector + 4) % 8, 0u) << "Buffer structs not 8-aligned";
  std::vector<BufferRef> out;
  for (uint32_t i = 0; i < U32(fb, vector); ++i) {
    out.push_back({I64(fb, vector + 4 + 16 * i), I64(fb, vector + 12 + 16 * i)});
  }
  return out;
}

std::vector<NodeRef> Nodes(const Message& batch) {
  const std::string& fb = batch.metadata;
  const size_t vector = Deref(fb, FieldAt(fb, batch.header, 1));
  std::vector<NodeRef> out;
  for (uint32_t i = 0; i < U32(fb, vector); ++i) {
    out.push_back({I64(fb, vector + 4 + 16 * i), I64(fb, vector + 12 + 16 * i)});
  }
  return out;
}

ResultPage Page(const Json& columns, std::vector<Json> rows) {
  ResultPage page;
  page.schema = Json{{"schema_version", 1}, {"schema", columns}};
  for (const Json& row : rows) page.rows.push_back(row.dump());
  page.total_rows = static_cast<int64_t>(page.rows.size());
  return page;
}

Json Col(const std::string& name, const std::string& type) {
  return Json{{"name", name}, {"type", type}, {"nullable", true}};
}

// ---- structure ----

TEST(ArrowIpcFramingTest, SchemaThenOneBatchThenEndMarker) {
  const std::string bytes =
      ArrowIpcStream(Page(Json::array({Col("id", "INTEGER"), Col("name", "STRING")}),
                          {Json::array({1, "a"}), Json::array({nullptr, "bcd"})}));
  ASSERT_GE(bytes.size(), 16u);
  EXPECT_EQ(bytes.size() % 8, 0u);
  EXPECT_EQ(bytes.substr(bytes.size() - 8), std::string("\xFF\xFF\xFF\xFF\0\0\0\0", 8));
  Stream stream = ParseStream(bytes);
  EXPECT_TRUE(stream.ended);
  ASSERT_EQ(stream.messages.size(), 2u);
  EXPECT_EQ(stream.messages[0].header_type, 1);  // Schema
  EXPECT_EQ(stream.messages[1].header_type, 3);  // RecordBatch
  EXPECT_EQ(stream.messages[0].version, 4);      // V5
  EXPECT_EQ(stream.messages[1].version, 4);
  EXPECT_TRUE(stream.messages[0].body.empty());
  EXPECT_EQ(stream.messages[1].body_start % 8, 0u);
  EXPECT_EQ(stream.messages[0].metadata_start % 8, 0u);
}

TEST(ArrowIpcFramingTest, BodyBuffersAreAlignedAndInsideTheBody) {
  const std::string bytes = ArrowIpcStream(
      Page(Json::array({Col("flag", "BOOLEAN"), Col("n", "INTEGER"), Col("s", "STRING"),
                        Col("b", "BINARY"), Col("t", "TIMESTAMP")}),
           {Json::array({true, 7, "xyz", "AAE=", "2026-08-05T14:35:02Z"}),
            Json::array({nullptr, nullptr, nullptr, nullptr, nullptr}),
            Json::array({false, -1, "", "", "1969-07-20T20:17:40.5+00:00"})}));
  Stream stream = ParseStream(bytes);
  ASSERT_EQ(stream.messages.size(), 2u);
  const Message& batch = stream.messages[1];
  const std::vector<BufferRef> buffers = Buffers(batch);
  // validity+values for fixed width, validity+offsets+data for Utf8/Binary.
  ASSERT_EQ(buffers.size(), 2u + 2u + 3u + 3u + 2u);
  for (const BufferRef& buffer : buffers) {
    EXPECT_EQ(buffer.offset % 8, 0);
    EXPECT_LE(buffer.offset + buffer.length, static_cast<int64_t>(batch.body.size()));
  }
  for (const NodeRef& node : Nodes(batch)) {
    EXPECT_EQ(node.length, 3);
    EXPECT_EQ(node.null_count, 1);
  }
  // Validity is LSB-first: rows 0 and 2 set, row 1 null.
  EXPECT_EQ(static_cast<uint8_t>(batch.body.at(buffers[0].offset)), 0b101);
  // Bool values bit-packed: only row 0 true.
  EXPECT_EQ(static_cast<uint8_t>(batch.body.at(buffers[1].offset)), 0b001);
  // INTEGER values: 7, 0 (null slot), -1.
  EXPECT_EQ(U32(batch.body, buffers[3].offset), 7u);
  EXPECT_EQ(U32(batch.body, buffers[3].offset + 8), 0xFFFFFFFFu);
  // Utf8 offsets: 0, 3, 3, 3.
  EXPECT_EQ(buffers[5].length, 16);
  EXPECT_EQ(U32(batch.body, buffers[5].offset + 4), 3u);
  EXPECT_EQ(U32(batch.body, buffers[5].offset + 12), 3u);
  // Timestamp µs: 1969-07-20T20:17:40.5Z.
  EXPECT_EQ(I64(batch.body, buffers[11].offset + 16), -14182939500000);
}

TEST(ArrowIpcFramingTest, ZeroRowsStillWriteAnEmptyBatch) {
  Stream stream = ParseStream(ArrowIpcStream(Page(Json::array({Col("x", "STRING")}), {})));
  EXPECT_TRUE(stream.ended);
  ASSERT_EQ(stream.messages.size(), 2u);
  EXPECT_EQ(I64(stream.messages[1].metadata,
                FieldAt(stream.messages[1].metadata, stream.messages[1].header, 0)),
            0);
}

TEST(ArrowIpcFramingTest, MalformedRowsAreRejected) {
  const Json columns = Json::array({Col("n", "INTEGER"), Col("d", "DATE")});
  EXPECT_THROW(ArrowIpcStream(Page(columns, {Json::array({1})})), std::invalid_argument);
  EXPECT_THROW(ArrowIpcStream(Page(columns, {Json::array({"1", "2026-01-01"})})),
               std::invalid_argument);
  EXPECT_THROW(ArrowIpcStream(Page(columns, {Json::array({4294967296LL, "2026-01-01"})})),
               std::invalid_argument);
  EXPECT_THROW(ArrowIpcStream(Page(columns, {Json::array({1, "2026-02-30"})})),
               std::invalid_argument);
}

TEST(ArrowTemporalTest, DaysSinceEpoch) {
  EXPECT_EQ(arrow::DaysSinceEpoch("1970-01-01"), 0);
  EXPECT_EQ(arrow::DaysSinceEpoch("1969-12-31"), -1);
  EXPECT_EQ(arrow::DaysSinceEpoch("1900-01-01"), -25567);
  EXPECT_EQ(arrow::DaysSinceEpoch("2000-03-01"), 11017);
  EXPECT_EQ(arrow::DaysSinceEpoch("0001-01-01"), -719162);
  EXPECT_THROW(arrow::DaysSinceEpoch("2026-8-5"), std::invalid_argument);
  EXPECT_THROW(arrow::DaysSinceEpoch("2026-08-05x"), std::invalid_argument);
}

TEST(ArrowTemporalTest, MicrosSinceEpoch) {
  EXPECT_EQ(arrow::MicrosSinceEpoch("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(arrow::MicrosSinceEpoch("1970-01-01T02:00:00.000001+02:00"), 1);
  EXPECT_EQ(arrow::MicrosSinceEpoch("1969-12-31T23:59:59.5Z"), -500000);
  EXPECT_EQ(arrow::MicrosSinceEpoch("1969-12-31T19:00:00-05:00"), 0);
  EXPECT_EQ(arrow::MicrosSinceEpoch("1970-01-01T05:30:00+0530"), 0);
  EXPECT_EQ(arrow::MicrosSinceEpoch("1970-01-01 00:00:00.123456789"), 123456);  // truncated
  EXPECT_EQ(arrow::MicrosSinceEpoch("2026-08-05T14:35:02Z"), 1785940502000000);
  EXPECT_THROW(arrow::MicrosSinceEpoch("2026-08-05T14:35"), std::invalid_argument);
  EXPECT_THROW(arrow::MicrosSinceEpoch("2026-08-05T14:35:02+2"), std::invalid_argument);
}

// ---- values, proven by apache-arrow ----

// Howard Hinnant's civil_from_days: the test's own calendar, not the writer's.
std::string IsoDate(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2);
  char text[64];
  std::snprintf(text, sizeof text, "%04lld-%02lld-%02lld", static_cast<long long>(year),
                static_cast<long long>(month), static_cast<long long>(day));
  return text;
}

std::string IsoClock(int64_t micros) {  // "YYYY-MM-DDTHH:MM:SS.ffffff" of µs since epoch
  constexpr int64_t kDay = 86'400'000'000;
  const int64_t days = micros >= 0 ? micros / kDay : -((-micros + kDay - 1) / kDay);
  const int64_t rest = micros - days * kDay;
  char clock[32];
  std::snprintf(
      clock, sizeof clock, "T%02lld:%02lld:%02lld.%06lld",
      static_cast<long long>(rest / 3'600'000'000), static_cast<long long>(rest / 60'000'000 % 60),
      static_cast<long long>(rest / 1'000'000 % 60), static_cast<long long>(rest % 1'000'000));
  return IsoDate(days) + clock;
}

bool NodeCheckAvailable() {
  return std::filesystem::exists(std::filesystem::path(DP_SOURCE_DIR) / "tools" / "arrow-check" /
                                 "node_modules" / "apache-arrow") &&
         std::system("command -v node >/dev/null 2>&1") == 0;
}

// Writes the stream to a temp file and returns check.mjs's JSON reading of it.
Json DecodeWithApacheArrow(const std::string& bytes) {
  static int counter = 0;
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("dp_arrow_ipc_" + std::to_string(::getpid()) + "_" + std::to_string(++counter) + ".arrows");
  std::ofstream(file, std::ios::binary) << bytes;
  const std::string command = "node '" + std::string(DP_SOURCE_DIR) +
                              "/tools/arrow-check/check.mjs' '" + file.string() + "'";
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed");
  char chunk[65536];
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) output.append(chunk, n);
  const int status = ::pclose(pipe);
  std::filesystem::remove(file);
  if (status != 0) throw std::runtime_error("check.mjs failed (" + std::to_string(status) + ")");
  return Json::parse(output);
}

void ExpectRows(const Json& decoded, const std::vector<Json>& expected) {
  ASSERT_EQ(decoded.at("rows").size(), expected.size());
  for (size_t r = 0; r < expected.size(); ++r) {
    const Json& row = decoded["rows"][r];
    ASSERT_EQ(row.size(), expected[r].size()) << "row " << r;
    for (size_t c = 0; c < row.size(); ++c) {
      EXPECT_EQ(row[c], expected[r][c]) << "row " << r << " column " << c;
    }
  }
}

class ArrowIpcApacheArrowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!NodeCheckAvailable()) {
      GTEST_SKIP() << "node or tools/arrow-check/node_modules absent "
                      "(cd tools/arrow-check && npm ci)";
    }
  }
};

const Json& AllTypes() {
  static const Json columns = Json::array(
      {Col("flag", "BOOLEAN"), Col("n", "INTEGER"), Col("big", "BIGINTEGER"),
       Col("amount", "DECIMAL"), Col("exact", "BIGDECIMAL"), Col("größe ✓", "STRING"),
       Col("blob", "BINARY"), Col("day", "DATE"), Col("clock", "TIME"), Col("at", "TIMESTAMP")});
  return columns;
}

TEST_F(ArrowIpcApacheArrowTest, EveryTypeDecodesExactly) {
  const std::vector<Json> input = {
      Json::array({true, 1, "9223372036854775808", 1.5, "12345678901234567890.000001",
                   "héllo wörld", "AAEC/w==", "2026-08-05", "14:35:02",
                   "2026-08-05T14:35:02.123456+02:00"}),
      Json::array({nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                   nullptr}),
      Json::array({false, -2147483648, "-92233720368547758080", -123.456, "-0.000000001", "", "",
                   "1969-12-31", "23:59:59.999999", "1969-12-31T23:59:59.999999Z"}),
      Json::array({true, 2147483647, "0", 1e-300, "0", std::string("日本語 😀 nul") + '\0' + "end",
                   "3q2+7w==", "1900-01-01", "00:00:00", "2026-01-01T00:30:00-05:30"}),
      Json::array({false, 0, "42", 0.1, "3.14", "tab\tquote\"nl\n", "AA==", "0001-01-01",
                   "12:00:00.5", "2026-08-05T14:35:02Z"}),
  };
  std::vector<Json> expected = input;
  expected[0][9] = "2026-08-05T12:35:02.123456Z";
  expected[2][9] = "1969-12-31T23:59:59.999999Z";
  expected[3][9] = "2026-01-01T06:00:00.000000Z";
  expected[4][9] = "2026-08-05T14:35:02.000000Z";

  const Json decoded = DecodeWithApacheArrow(ArrowIpcStream(Page(AllTypes(), input)));
  EXPECT_EQ(decoded["format"], "stream");
  EXPECT_EQ(decoded["batches"], Json::array({5}));
  const std::vector<std::string> types = {
      "Bool", "Int32",  "Utf8",        "Float64", "Utf8",
      "Utf8", "Binary", "Date32<DAY>", "Utf8",    "Timestamp<MICROSECOND, UTC>"};
  ASSERT_EQ(decoded["fields"].size(), types.size());
  for (size_t c = 0; c < types.size(); ++c) {
    EXPECT_EQ(decoded["fields"][c]["name"], AllTypes()[c]["name"]);
    EXPECT_EQ(decoded["fields"][c]["type"], types[c]);
    EXPECT_EQ(decoded["fields"][c]["nullable"], true);
  }
  EXPECT_EQ(decoded["fields"][9]["timezone"], "UTC");
  ExpectRows(decoded, expected);
}

TEST_F(ArrowIpcApacheArrowTest, ZeroRowsDecodeAsAnEmptyTableWithItsSchema) {
  const Json decoded = DecodeWithApacheArrow(ArrowIpcStream(Page(AllTypes(), {})));
  EXPECT_EQ(decoded["batches"], Json::array({0}));
  EXPECT_EQ(decoded["num_rows"], 0);
  ASSERT_EQ(decoded["fields"].size(), AllTypes().size());
  EXPECT_EQ(decoded["fields"][5]["name"], "größe ✓");
  EXPECT_EQ(decoded["fields"][7]["type"], "Date32<DAY>");
}

TEST_F(ArrowIpcApacheArrowTest, ThousandRowsDecodeExactly) {
  std::vector<Json> input, expected;
  for (int64_t i = 0; i < 1000; ++i) {
    const bool null_row = i % 7 == 3;
    const int64_t days = -40000 + i * 97;                  // 1860 … 2235
    const int64_t micros = (i - 500) * 3'123'456'789'123;  // ±49 years around 1970, odd µs
    const int64_t offset_minutes = (i % 29 - 14) * 60 + (i % 2) * 30;
    const int64_t shifted = micros + offset_minutes * 60'000'000;
    char zone[8];
    std::snprintf(zone, sizeof zone, "%c%02lld:%02lld", offset_minutes < 0 ? '-' : '+',
                  static_cast<long long>(std::llabs(offset_minutes) / 60),
                  static_cast<long long>(std::llabs(offset_minutes) % 60));
    Json row =
        Json::array({i % 3 == 0, static_cast<int32_t>(i * 2147483 - 1073741824),
                     std::to_string(i) + "0000000000000000000", static_cast<double>(i) / 8 - 60,
                     "-" + std::to_string(i) + ".25", "row-" + std::to_string(i) + "-ü€",
                     i % 5 == 0 ? "" : "AQID", IsoDate(days),
                     "10:00:" + std::to_string(10 + i % 50), IsoClock(shifted) + zone});
    Json want = row;
    want[9] = IsoClock(micros) + "Z";
    if (null_row) {
      for (size_t c = i % 10; c < row.size(); c += 3) row[c] = want[c] = nullptr;
    }
    input.push_back(row);
    expected.push_back(want);
  }
  const Json decoded = DecodeWithApacheArrow(ArrowIpcStream(Page(AllTypes(), input)));
  EXPECT_EQ(decoded["batches"], Json::array({1000}));
  ExpectRows(decoded, expected);
}

}  // namespace
}  // namespace dp
