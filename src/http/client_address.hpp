#pragma once
// Who the client is when a proxy stands in front (deployment §6.2): the direct peer, unless it
// is one of `datapipelines.auth.trusted-proxies`, in which case X-Forwarded-For is read from its
// right end, skipping every trusted hop, and the first address not trusted is the client. An
// untrusted peer cannot name a client by setting the header; with no proxies configured the
// header is ignored entirely. The login limiter and every audit row's source_ip read the result.
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/net/http_message.hpp"
#include "datapipelines/util/ip_network.hpp"

namespace dp {

class ClientAddress {
 public:
  // Throws std::invalid_argument naming the first entry that is not an address or CIDR.
  explicit ClientAddress(const std::vector<std::string>& trusted_proxies);

  std::string Resolve(const std::string& peer, const HttpHeaders& headers) const;

 private:
  bool Trusted(std::string_view address) const;

  std::vector<IpNetwork> trusted_;
};

}  // namespace dp
