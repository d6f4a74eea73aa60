#include "connectors/wire/wkb_text.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace dp {
namespace {

void U32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}
void F64(std::string& out, double v) {
  char b[8];
  std::memcpy(b, &v, 8);  // little-endian host
  out.append(b, 8);
}
std::string Point(double x, double y) {
  std::string out("\x01", 1);
  U32(out, 1);
  F64(out, x);
  F64(out, y);
  return out;
}

TEST(WkbTextTest, PointsLinesAndMultiPoints) {
  std::string srid(4, '\0');
  EXPECT_EQ(MysqlGeometryToWkt(srid + Point(1, 2.5)), "POINT(1 2.5)");
  std::string line("\x01", 1);
  U32(line, 2);
  U32(line, 2);
  F64(line, 0);
  F64(line, 0);
  F64(line, -1.25);
  F64(line, 3);
  EXPECT_EQ(MysqlGeometryToWkt(srid + line), "LINESTRING(0 0,-1.25 3)");
  std::string multi("\x01", 1);
  U32(multi, 4);
  U32(multi, 2);
  multi += Point(1, 2) + Point(3, 4);
  EXPECT_EQ(MysqlGeometryToWkt(srid + multi), "MULTIPOINT(1 2,3 4)");
}

TEST(WkbTextTest, RejectsTruncatedOrForeignBytes) {
  std::string srid(4, '\0');
  std::string point = Point(1, 2);
  EXPECT_FALSE(MysqlGeometryToWkt(srid + point.substr(0, point.size() - 1)));
  EXPECT_FALSE(MysqlGeometryToWkt("not wkb at all"));
  EXPECT_FALSE(MysqlGeometryToWkt(srid + point + "x"));
}

}  // namespace
}  // namespace dp
