// The client behind trusted proxies: X-Forwarded-For read from the nearest hop back, trusted hops
// skipped, and never believed from a peer that is not a trusted proxy.
#include "http/client_address.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

struct ClientCase {
  const char* peer;
  std::vector<const char*> forwarded;  // one entry per X-Forwarded-For header
  const char* client;
};

TEST(ClientAddressTest, ForwardedForIsBelievedOnlyFromTrustedProxies) {
  ClientAddress resolver({"10.0.0.0/8", "192.168.1.7", "fd00::/8"});
  const ClientCase cases[] = {
      {"203.0.113.9", {"198.51.100.1"}, "203.0.113.9"},          // untrusted peer: header ignored
      {"10.1.2.3", {"198.51.100.1"}, "198.51.100.1"},            // one proxy
      {"10.1.2.3", {"198.51.100.1, 10.4.4.4"}, "198.51.100.1"},  // two trusted hops skipped
      {"10.1.2.3", {"6.6.6.6, 198.51.100.1"}, "198.51.100.1"},   // a forged left part is not read
      {"192.168.1.7", {"198.51.100.1", "10.9.9.9"}, "198.51.100.1"},  // two headers: one list
      {"::ffff:10.1.2.3", {"198.51.100.1"}, "198.51.100.1"},          // a mapped IPv4 peer
      {"fd00::5", {"2001:db8::1"}, "2001:db8::1"},
      {"10.1.2.3", {"not-an-ip"}, "10.1.2.3"},  // garbage: the proxy itself
      {"10.1.2.3", {}, "10.1.2.3"},
  };
  for (const auto& c : cases) {
    HttpHeaders headers;
    for (const char* value : c.forwarded) headers.Add("X-Forwarded-For", value);
    EXPECT_EQ(resolver.Resolve(c.peer, headers), c.client) << c.peer;
  }
}

TEST(ClientAddressTest, WithoutTrustedProxiesTheHeaderIsIgnored) {
  ClientAddress resolver({});
  HttpHeaders headers;
  headers.Add("X-Forwarded-For", "198.51.100.1");
  EXPECT_EQ(resolver.Resolve("127.0.0.1", headers), "127.0.0.1");
  EXPECT_THROW(ClientAddress({"10.0.0.0/33"}), std::invalid_argument);
  EXPECT_THROW(ClientAddress({"ten"}), std::invalid_argument);
}

}  // namespace
}  // namespace dp
