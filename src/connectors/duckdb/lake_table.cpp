#include "datapipelines/connectors/duckdb/lake_table.hpp"

#include <cctype>

namespace dp {

std::string LakeTable::QualifiedName() const {
  std::string out;
  for (const auto& segment : ns) out += segment + ".";
  return out + name;
}

std::string LakeFilePath(std::string_view location) {
  constexpr std::string_view kFile = "file://";
  if (location.substr(0, kFile.size()) == kFile) location.remove_prefix(kFile.size());
  return std::string(location);
}

std::optional<std::string> LakeLocationProblem(std::string_view location, std::string_view root) {
  if (location.empty()) return "location is required";
  for (char c : location) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\'' || c == '"' || c == '`' || c == '\\' || c == ';' || std::isspace(u) ||
        std::iscntrl(u) || u >= 0x80) {
      return "location may not contain quotes, backslashes, semicolons, whitespace, control or "
             "non-ASCII characters";
    }
  }
  if (location.rfind("s3://", 0) == 0) {
    if (location.size() <= 5 || location[5] == '/') return "an s3:// location names a bucket";
    return std::nullopt;
  }
  if (location.rfind("file://", 0) != 0) return "location must be a file:// or s3:// URL";
  std::string path = LakeFilePath(location);
  if (path.empty() || path[0] != '/') return "a file:// location must be an absolute path";
  if (path.find("/../") != std::string::npos ||
      (path.size() >= 3 && path.compare(path.size() - 3, 3, "/..") == 0)) {
    return "a file:// location may not contain '..' segments";
  }
  if (!root.empty()) {
    std::string base(root);
    if (base.back() != '/') base.push_back('/');
    if (path.rfind(base, 0) != 0 && path + "/" != base) {
      return "a file:// location must sit under the datasource's root " + std::string(root);
    }
  }
  return std::nullopt;
}

}  // namespace dp
