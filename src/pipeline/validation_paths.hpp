#pragma once
// JSON paths into a pipeline body ("nodes[2].output.table"), shared by the parser and the rules.
// Author-supplied names appear in paths and messages, so they are length-bounded first.
#include <cstddef>
#include <string>

namespace dp::pipeline_paths {

inline std::string Bounded(const std::string& text) {
  constexpr std::size_t kMax = 64;
  return text.size() <= kMax ? text : text.substr(0, kMax) + "...";
}

inline std::string Member(const std::string& base, const std::string& key) {
  return base.empty() ? Bounded(key) : base + "." + Bounded(key);
}

inline std::string Index(const std::string& base, std::size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

inline std::string NodePath(std::size_t index, const std::string& field = "") {
  std::string path = Index("nodes", index);
  return field.empty() ? path : path + "." + field;
}

inline std::string Quoted(const std::string& text) { return "'" + Bounded(text) + "'"; }

}  // namespace dp::pipeline_paths
