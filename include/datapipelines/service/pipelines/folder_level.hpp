#pragma once
// One level of a folder tree of names (spec §6.2.1, §6.2.6): folders are virtual, so a level is
// computed from the full paths — the prefix's direct sub-folders with whole-subtree counts, and
// its direct leaves. An illegal folder prefix is an empty level, never an error.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dp {

struct FolderEntry {
  std::string path;     // "nyc/mobility"
  std::string segment;  // "mobility"
  int64_t count = 0;    // names anywhere below it
};

struct FolderLevel {
  std::vector<FolderEntry> folders;  // by segment
  std::vector<size_t> leaves;        // indexes into the input paths, in input order
};

FolderLevel BrowseFolderLevel(const std::vector<std::string_view>& paths,
                              const std::string& prefix);

}  // namespace dp
