#pragma once
// A learned fact's schema fingerprint (design §3.2, metadata-db §4.18): per referenced table
// the SHA-256 of its sorted (column, canonical type) list as introspection returned it, kept
// ADDRESSABLE as sorted "tableKey=sha256" entries joined by ';' — the read-time drift check
// recomputes only the table whose columns it just read.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/column_schema.hpp"

namespace dp {

class SchemaFingerprint {
 public:
  // The digest of one table's column set.
  static std::string TableDigest(const std::vector<ColumnSchema>& columns);
  // Parses the stored form; malformed entries are skipped.
  static SchemaFingerprint Parse(const std::string& stored);

  void Set(const std::string& table_key, std::string digest) {
    digests_[table_key] = std::move(digest);
  }
  std::optional<std::string> Digest(const std::string& table_key) const;
  // The stored form ("" when no table is referenced).
  std::string ToString() const;

 private:
  std::map<std::string, std::string> digests_;
};

}  // namespace dp
