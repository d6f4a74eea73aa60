#include "datapipelines/connectors/wire/wire_json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>

#include "datapipelines/connectors/wire/wire_encoder.hpp"

namespace dp {
namespace {

// Length of the valid UTF-8 sequence at text[i] (RFC 3629: no overlongs, surrogates or code
// points past U+10FFFF — what nlohmann's decoder accepts), 0 when invalid.
std::size_t Utf8Length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
  if (lead < 0xC2 || lead > 0xF4 || i + length > text.size()) return 0;
  unsigned char second = byte(i + 1);
  unsigned char low = 0x80, high = 0xBF;
  if (lead == 0xE0) low = 0xA0;
  if (lead == 0xED) high = 0x9F;
  if (lead == 0xF0) low = 0x90;
  if (lead == 0xF4) high = 0x8F;
  if (second < low || second > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

char EscapeLetter(unsigned char c) {
  switch (c) {
    case '\b':
      return 'b';
    case '\t':
      return 't';
    case '\n':
      return 'n';
    case '\f':
      return 'f';
    case '\r':
      return 'r';
    case '"':
      return '"';
    case '\\':
      return '\\';
    default:
      return 0;
  }
}

void AppendEscape(unsigned char c, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '\\';
  if (char letter = EscapeLetter(c)) {
    out += letter;
    return;
  }
  const char unicode[] = {'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
  out.append(unicode, sizeof unicode);
}

}  // namespace

WireJsonWriter::WireJsonWriter(const std::vector<ColumnSchema>& columns) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    bool repeated = false;
    for (auto& key : keys_) {
      if (columns[key.column].name == columns[i].name) {
        key.column = i;
        repeated = true;
        break;
      }
    }
    if (repeated) continue;
    std::string quoted;
    AppendString(columns[i].name, quoted);
    keys_.push_back({quoted + ':', i});
  }
}

void WireJsonWriter::AppendObject(const RowView& row, std::string& out) {
  out += '{';
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    if (k) out += ',';
    out += keys_[k].quoted;
    std::size_t i = keys_[k].column;
    AppendValue(row.column(i).mapping, row.text(i), out);
  }
  out += '}';
}

void WireJsonWriter::AppendArray(const RowView& row, std::string& out) {
  out += '[';
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i) out += ',';
    AppendValue(row.column(i).mapping, row.text(i), out);
  }
  out += ']';
}

void WireJsonWriter::AppendValue(const TypeMapping& mapping, std::optional<std::string_view> text,
                                 std::string& out) {
  WireScalar scalar = WireEncoder::Scalar(mapping, text, scratch_);
  char buf[64];
  switch (scalar.kind) {
    case WireScalar::Kind::kNull:
      out += "null";
      return;
    case WireScalar::Kind::kBool:
      out += scalar.flag ? "true" : "false";
      return;
    case WireScalar::Kind::kInteger: {
      char* end = std::to_chars(buf, buf + sizeof buf, scalar.integer).ptr;
      out.append(buf, static_cast<std::size_t>(end - buf));
      return;
    }
    case WireScalar::Kind::kDouble: {
      // nlohmann's own shortest round-trip formatting, so the digits match dump()'s.
      char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, scalar.number);
      out.append(buf, static_cast<std::size_t>(end - buf));
      return;
    }
    case WireScalar::Kind::kText:
      AppendString(scalar.text, out);
      return;
  }
}

void WireJsonWriter::AppendString(std::string_view text, std::string& out) {
  out.reserve(out.size() + text.size() + 2);
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      ++i;
      continue;
    }
    out.append(text.data() + run, i - run);
    if (c < 0x80) {
      AppendEscape(c, out);
      run = ++i;
      continue;
    }
    std::size_t length = Utf8Length(text, i);
    if (length == 0) {
      // Let dump() raise its own error, message and all; should it accept the byte after
      // all, copy it through as dump() would.
      (void)Json(std::string(text)).dump();
      length = 1;
    }
    out.append(text.data() + i, length);
    run = i += length;
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

}  // namespace dp
