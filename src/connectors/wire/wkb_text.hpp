#pragma once
// MySQL/MariaDB geometry values arrive as a 4-byte SRID + WKB; the canonical STRING form is
// WKT (type-system.md §5.4 "geometry types → STRING, WKT representation").
#include <optional>
#include <string>
#include <string_view>

namespace dp {

// "POINT(1 2)", "POLYGON((0 0,1 0,1 1,0 0))", ...; nullopt when the bytes are not WKB.
std::optional<std::string> MysqlGeometryToWkt(std::string_view value);

}  // namespace dp
