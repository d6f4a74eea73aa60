#include "datapipelines/endpoints/endpoint_authorization.hpp"

namespace dp {

std::vector<std::string> EndpointAuthorization::Ancestors(const PathPattern& pattern) {
  std::vector<std::string> out;
  std::string text = pattern.text();
  while (!text.empty() && text != "/") {
    out.push_back(text);
    std::size_t cut = text.rfind('/');
    text = cut == 0 ? "/" : text.substr(0, cut);
  }
  out.push_back("/");
  return out;
}

bool EndpointAuthorization::IsNode(const std::string& text, std::string* reason) {
  if (text == "/") return true;
  return PathPattern::Parse(text, reason).has_value();
}

EndpointVerdict EndpointAuthorization::Decide(const PathPattern& pattern,
                                              const std::string& endpoint_workspace,
                                              const EndpointCaller& caller,
                                              const std::vector<NodeBinding>& bindings,
                                              std::string* deciding_node) {
  if (caller.kind == KeyKind::kServer) return EndpointVerdict::kKindRefused;
  for (const std::string& node : Ancestors(pattern)) {
    bool carries = false;
    bool bound = false;
    for (const auto& b : bindings) {
      if (b.path_prefix != node) continue;
      carries = true;
      if (b.api_key_id == caller.key_id) bound = true;
    }
    if (!carries) continue;
    if (deciding_node) *deciding_node = node;
    if (!bound) return EndpointVerdict::kKeyNotBound;
    // A binding never reaches across workspaces: the key is pinned to its own.
    return caller.workspace_id == endpoint_workspace ? EndpointVerdict::kAllowed
                                                     : EndpointVerdict::kWrongWorkspace;
  }
  if (caller.kind != KeyKind::kUser) return EndpointVerdict::kKindRefused;
  if (caller.workspace_id != endpoint_workspace) return EndpointVerdict::kWrongWorkspace;
  if (!caller.has_execute) return EndpointVerdict::kScopeRefused;
  return EndpointVerdict::kAllowed;
}

}  // namespace dp
