#include "wkb_text.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>

namespace dp {
namespace {

class WkbReader {
 public:
  explicit WkbReader(std::string_view bytes) : bytes_(bytes) {}

  bool Geometry(std::string& out, bool with_tag = true) {
    uint8_t order = 0;
    uint32_t type = 0;
    if (!Byte(order) || order > 1) return false;
    little_ = order == 1;
    if (!U32(type)) return false;
    switch (type) {
      case 1:
        if (with_tag) out += "POINT";
        out += "(";
        if (!Coordinates(out)) return false;
        out += ")";
        return true;
      case 2:
        out += with_tag ? "LINESTRING" : "";
        return Points(out);
      case 3:
        out += with_tag ? "POLYGON" : "";
        return Rings(out);
      case 4:
        out += "MULTIPOINT";
        return Members(out, false);
      case 5:
        out += "MULTILINESTRING";
        return Members(out, false);
      case 6:
        out += "MULTIPOLYGON";
        return Members(out, false);
      case 7:
        out += "GEOMETRYCOLLECTION";
        return Members(out, true);
      default:
        return false;
    }
  }

  bool done() const { return pos_ == bytes_.size(); }

 private:
  bool Byte(uint8_t& out) {
    if (pos_ + 1 > bytes_.size()) return false;
    out = static_cast<uint8_t>(bytes_[pos_++]);
    return true;
  }
  bool U32(uint32_t& out) {
    if (pos_ + 4 > bytes_.size()) return false;
    unsigned char b[4];
    std::memcpy(b, bytes_.data() + pos_, 4);
    pos_ += 4;
    out = little_ ? (b[0] | b[1] << 8 | b[2] << 16 | uint32_t(b[3]) << 24)
                  : (b[3] | b[2] << 8 | b[1] << 16 | uint32_t(b[0]) << 24);
    return true;
  }
  bool Double(std::string& out) {
    if (pos_ + 8 > bytes_.size()) return false;
    unsigned char b[8];
    std::memcpy(b, bytes_.data() + pos_, 8);
    pos_ += 8;
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits |= uint64_t(b[little_ ? i : 7 - i]) << (8 * i);
    double value;
    std::memcpy(&value, &bits, 8);
    char buf[32];
    auto result = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, result.ptr);
    return true;
  }
  bool Coordinates(std::string& out) {
    if (!Double(out)) return false;
    out += " ";
    return Double(out);
  }
  bool Points(std::string& out) {
    uint32_t n = 0;
    if (!U32(n) || n > bytes_.size()) return false;
    out += "(";
    for (uint32_t i = 0; i < n; ++i) {
      if (i) out += ",";
      if (!Coordinates(out)) return false;
    }
    out += ")";
    return true;
  }
  bool Rings(std::string& out) {
    uint32_t n = 0;
    if (!U32(n) || n > bytes_.size()) return false;
    out += "(";
    for (uint32_t i = 0; i < n; ++i) {
      if (i) out += ",";
      if (!Points(out)) return false;
    }
    out += ")";
    return true;
  }
  // Multi* members drop their own tag (MULTIPOINT(1 2,3 4)); collections keep it.
  bool Members(std::string& out, bool tagged) {
    uint32_t n = 0;
    if (!U32(n) || n > bytes_.size()) return false;
    out += "(";
    for (uint32_t i = 0; i < n; ++i) {
      if (i) out += ",";
      std::string member;
      if (!Geometry(member, tagged)) return false;
      // A point inside MULTIPOINT prints bare: strip the parentheses Geometry() added.
      if (!tagged && member.size() > 1 && member.front() == '(' &&
          member.find('(', 1) == std::string::npos) {
        member = member.substr(1, member.size() - 2);
      }
      out += member;
    }
    out += ")";
    return true;
  }

  std::string_view bytes_;
  std::size_t pos_ = 0;
  bool little_ = true;
};

}  // namespace

std::optional<std::string> MysqlGeometryToWkt(std::string_view value) {
  if (value.size() < 4 + 5) return std::nullopt;
  WkbReader reader(value.substr(4));  // skip the SRID
  std::string out;
  if (!reader.Geometry(out) || !reader.done()) return std::nullopt;
  return out;
}

}  // namespace dp
