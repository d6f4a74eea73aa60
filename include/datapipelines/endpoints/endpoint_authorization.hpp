#pragma once
// Who may call a published endpoint (auth.md §7.7, ruling R-EP2). A binding names a NODE of the
// endpoint tree; the ancestors of the endpoint's pattern are walked from the most specific
// ('/a/{b}/c' → '/a/{b}' → '/a' → '/') and the FIRST node carrying any binding decides, for
// every credential: a deeper binding replaces an inherited one. With no binding on any
// ancestor only user keys holding execute in the endpoint's workspace are accepted, and an
// endpoint key authorises nothing. Pure: the bindings are handed in.
#include <string>
#include <vector>

#include "datapipelines/domain/access.hpp"
#include "datapipelines/endpoints/path_pattern.hpp"

namespace dp {

struct EndpointCaller {
  std::string key_id;
  KeyKind kind = KeyKind::kUser;
  std::string workspace_id;
  bool has_execute = false;  // a user key: scope >= execute and a role that may execute
};

struct NodeBinding {
  std::string path_prefix;
  std::string api_key_id;
};

enum class EndpointVerdict {
  kAllowed,
  kKeyNotBound,     // endpoint.key_not_bound
  kKindRefused,     // endpoint.key_kind_refused (an endpoint key on an unbound endpoint, a
                    // server key anywhere)
  kWrongWorkspace,  // a user key of another workspace on an unbound endpoint
  kScopeRefused,    // a user key without execute on an unbound endpoint
};

class EndpointAuthorization {
 public:
  // The nodes above (and at) a pattern, most specific first, ending with "/".
  static std::vector<std::string> Ancestors(const PathPattern& pattern);
  // Whether `text` may name a node: "/" or a valid pattern.
  static bool IsNode(const std::string& text, std::string* reason = nullptr);

  // `bindings` holds at least every binding on the pattern's ancestors (others are ignored).
  static EndpointVerdict Decide(const PathPattern& pattern, const std::string& endpoint_workspace,
                                const EndpointCaller& caller,
                                const std::vector<NodeBinding>& bindings,
                                std::string* deciding_node = nullptr);
};

}  // namespace dp
