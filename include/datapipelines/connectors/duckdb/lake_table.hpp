#pragma once
// One registered LAKE table (datasources.md §8C.1): the registry row a LAKE connector turns
// into a view at open, and the location grammar both the registry and the view emission
// enforce.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dp {

struct LakeTable {
  std::vector<std::string> ns;  // 1–2 segments served (a deeper namespace is refused)
  std::string name;
  std::string format;    // "parquet" | "iceberg"
  std::string location;  // file:///abs/path[/glob] or s3://bucket/prefix
  std::optional<std::string> partition_column;

  // "ns.name" (the dotted shorthand).
  std::string QualifiedName() const;
};

// Why a location is unusable, or nullopt when it is a well-formed file:// or s3:// location:
// no other scheme, and no quote, backslash, whitespace or control character anywhere (the
// value is interpolated into CREATE VIEW, so a value needing escaping is refused, never
// escaped). A file:// location must also be absolute, free of ".." segments, and sit under
// `root` when a root is given.
std::optional<std::string> LakeLocationProblem(std::string_view location, std::string_view root);

// The filesystem path of a file:// location ("file:///data/x" → "/data/x").
std::string LakeFilePath(std::string_view location);

}  // namespace dp
