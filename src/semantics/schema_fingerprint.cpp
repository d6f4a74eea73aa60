#include "datapipelines/semantics/schema_fingerprint.hpp"

#include <algorithm>

#include "datapipelines/util/crypto.hpp"

namespace dp {

std::string SchemaFingerprint::TableDigest(const std::vector<ColumnSchema>& columns) {
  std::vector<std::string> lines;
  lines.reserve(columns.size());
  for (const auto& column : columns) {
    lines.push_back(column.name + "\t" + std::string(dp::ToString(column.mapping.type)));
  }
  std::sort(lines.begin(), lines.end());
  std::string joined;
  for (const auto& line : lines) joined += line + "\n";
  return Sha256Hex(joined);
}

SchemaFingerprint SchemaFingerprint::Parse(const std::string& stored) {
  SchemaFingerprint out;
  std::size_t start = 0;
  while (start < stored.size()) {
    std::size_t end = stored.find(';', start);
    if (end == std::string::npos) end = stored.size();
    std::string entry = stored.substr(start, end - start);
    // The digest never holds '=', a table key might: split at the last one.
    std::size_t equals = entry.rfind('=');
    if (equals != std::string::npos && equals > 0) {
      out.digests_[entry.substr(0, equals)] = entry.substr(equals + 1);
    }
    start = end + 1;
  }
  return out;
}

std::optional<std::string> SchemaFingerprint::Digest(const std::string& table_key) const {
  auto it = digests_.find(table_key);
  if (it == digests_.end()) return std::nullopt;
  return it->second;
}

std::string SchemaFingerprint::ToString() const {
  std::string out;
  for (const auto& [key, digest] : digests_) out += (out.empty() ? "" : ";") + key + "=" + digest;
  return out;
}

}  // namespace dp
