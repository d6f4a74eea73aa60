#pragma once
// Transport-level request checks that run before any route: DNS-rebinding protection
// (Host allowlist), Origin allowlist and correlation ids (REST API §3.4).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/domain/error_code.hpp"
#include "datapipelines/net/http_message.hpp"

namespace dp {

// Why the edge refuses a request before any route sees it.
struct EdgeRefusal {
  int status = 400;
  const ErrorCode* code = nullptr;
  std::string message;
};

class RequestPolicy {
 public:
  RequestPolicy(std::vector<std::string> allowed_hosts, std::vector<std::string> allowed_origins);

  // Loopback names (localhost, 127.0.0.0/8, [::1]) with any port are always allowed.
  bool HostAllowed(std::string_view host_header) const;
  // No Origin header passes; a present one must be loopback or listed exactly.
  bool OriginAllowed(std::optional<std::string_view> origin) const;
  // The edge checks, in order: text that is not UTF-8, no or several Host headers, a Host or
  // an Origin not allowed. Run once before the body is read (header-time admission) and once
  // at dispatch, by this one function, so both refuse the same requests the same way.
  std::optional<EdgeRefusal> Refusal(const HttpRequest& request) const;
  // The inbound DP-Correlation-Id when it is a well-formed UUID, else a new one.
  static std::string CorrelationIdFor(const HttpHeaders& headers);

 private:
  std::vector<std::string> allowed_hosts_;  // lowercased, without port
  std::vector<std::string> allowed_origins_;
};

}  // namespace dp
