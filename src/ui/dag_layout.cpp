#include "datapipelines/ui/dag_layout.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace dp {
namespace {

constexpr int kNodeWidth = 168;
constexpr int kNodeHeight = 44;
constexpr int kColumnGap = 64;
constexpr int kRowGap = 20;
constexpr int kMargin = 12;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

Json LayoutDag(const Json& nodes) {
  Json out{{"width", 0}, {"height", 0}, {"nodes", Json::array()}, {"edges", Json::array()}};
  if (!nodes.is_array() || nodes.empty()) return out;
  std::vector<std::string> ids;
  std::map<std::string, size_t> index;
  std::vector<std::vector<size_t>> deps(nodes.size());
  for (const Json& node : nodes) {
    std::string id = node.is_object() ? node.value("id", std::string()) : std::string();
    index.emplace(id, ids.size());
    ids.push_back(id);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Json& node = nodes[i];
    if (!node.is_object() || !node.contains("depends_on") || !node["depends_on"].is_array())
      continue;
    for (const Json& dep : node["depends_on"]) {
      if (!dep.is_string()) continue;
      auto it = index.find(dep.get<std::string>());
      if (it != index.end() && it->second != i) deps[i].push_back(it->second);
    }
  }
  // Longest-path depth by relaxation, bounded by the node count (a cycle cannot loop forever).
  std::vector<int> depth(nodes.size(), 0);
  for (size_t round = 0; round < nodes.size(); ++round) {
    bool changed = false;
    for (size_t i = 0; i < nodes.size(); ++i) {
      for (size_t d : deps[i]) {
        if (depth[d] + 1 > depth[i] && depth[d] + 1 <= static_cast<int>(nodes.size())) {
          depth[i] = depth[d] + 1;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  std::map<int, int> rows_in_column;
  std::vector<int> x(nodes.size()), y(nodes.size());
  int width = 0, height = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    int row = rows_in_column[depth[i]]++;
    x[i] = kMargin + depth[i] * (kNodeWidth + kColumnGap);
    y[i] = kMargin + row * (kNodeHeight + kRowGap);
    width = std::max(width, x[i] + kNodeWidth + kMargin);
    height = std::max(height, y[i] + kNodeHeight + kMargin);
    const Json& node = nodes[i];
    std::string type = node.is_object() ? node.value("type", std::string()) : std::string();
    out["nodes"].push_back({{"id", ids[i]},
                            {"type", type},
                            {"x", x[i]},
                            {"y", y[i]},
                            {"w", kNodeWidth},
                            {"h", kNodeHeight},
                            {"tx", x[i] + 10},
                            {"ty", y[i] + 19},
                            {"sy", y[i] + 35}});
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (size_t d : deps[i]) {
      int x1 = x[d] + kNodeWidth, y1 = y[d] + kNodeHeight / 2;
      int x2 = x[i], y2 = y[i] + kNodeHeight / 2;
      int mid = (x1 + x2) / 2;
      std::string path = "M" + std::to_string(x1) + "," + std::to_string(y1) + " C" +
                         std::to_string(mid) + "," + std::to_string(y1) + " " +
                         std::to_string(mid) + "," + std::to_string(y2) + " " +
                         std::to_string(x2 - 6) + "," + std::to_string(y2);
      out["edges"].push_back({{"from", ids[d]}, {"to", ids[i]}, {"d", path}});
    }
  }
  out["width"] = width;
  out["height"] = height;
  return out;
}

Json LineDiff(const std::string& before, const std::string& after, size_t max_lines) {
  std::vector<std::string> a = Lines(before), b = Lines(after);
  Json out = Json::array();
  auto push = [&](const char* op, const std::string& text) {
    out.push_back({{"op", op}, {"text", text}});
  };
  if (a.size() > max_lines || b.size() > max_lines) {
    for (const auto& line : a) push("-", line);
    for (const auto& line : b) push("+", line);
    return out;
  }
  size_t n = a.size(), m = b.size();
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    if (a[i] == b[j]) {
      push(" ", a[i]);
      ++i;
      ++j;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      push("-", a[i++]);
    } else {
      push("+", b[j++]);
    }
  }
  while (i < n) push("-", a[i++]);
  while (j < m) push("+", b[j++]);
  return out;
}

}  // namespace dp
