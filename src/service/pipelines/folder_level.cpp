#include "datapipelines/service/pipelines/folder_level.hpp"

#include <map>

#include "datapipelines/service/templates/template_id.hpp"

namespace dp {

FolderLevel BrowseFolderLevel(const std::vector<std::string_view>& paths,
                              const std::string& prefix) {
  FolderLevel level;
  if (!prefix.empty() && !IsTemplateFolderPath(prefix)) return level;
  const std::string lead = prefix.empty() ? "" : prefix + "/";
  std::map<std::string, int64_t> folders;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string_view path = paths[i];
    if (path.substr(0, lead.size()) != lead) continue;
    std::string_view rest = path.substr(lead.size());
    size_t slash = rest.find('/');
    if (slash == std::string_view::npos) {
      level.leaves.push_back(i);
    } else {
      ++folders[std::string(rest.substr(0, slash))];
    }
  }
  for (const auto& [segment, count] : folders) {
    level.folders.push_back({lead + segment, segment, count});
  }
  return level;
}

}  // namespace dp
