#include "http/client_address.hpp"

#include <stdexcept>

#include "datapipelines/util/ascii.hpp"

namespace dp {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

}  // namespace

ClientAddress::ClientAddress(const std::vector<std::string>& trusted_proxies) {
  for (const std::string& entry : trusted_proxies) {
    auto network = IpNetwork::Parse(entry);
    if (!network) {
      throw std::invalid_argument("'" + entry +
                                  "' in datapipelines.auth.trusted-proxies is not an IP address "
                                  "or CIDR");
    }
    trusted_.push_back(*network);
  }
}

bool ClientAddress::Trusted(std::string_view address) const {
  for (const IpNetwork& network : trusted_) {
    if (network.Contains(address)) return true;
  }
  return false;
}

std::string ClientAddress::Resolve(const std::string& peer, const HttpHeaders& headers) const {
  if (trusted_.empty() || !Trusted(peer)) return peer;
  std::string client = peer;
  // Every X-Forwarded-For header, in order, is one list; walk it from the nearest hop back.
  std::vector<std::string_view> hops;
  for (const auto& [name, value] : headers.All()) {
    if (!AsciiEqualsIgnoreCase(name, "X-Forwarded-For")) continue;
    std::string_view rest = value;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      hops.push_back(Trim(rest.substr(0, comma)));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
    if (!IpNetwork::Parse(*it)) break;  // garbage: stop at the last address we could vouch for
    client = std::string(*it);
    if (!Trusted(*it)) break;
  }
  return client;
}

}  // namespace dp
