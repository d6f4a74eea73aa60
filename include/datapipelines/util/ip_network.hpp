#pragma once
// An IP network in CIDR form (10.0.0.0/8, 2001:db8::/32; a bare address is a host network)
// and whether an address lies in it. IPv4-mapped IPv6 addresses (::ffff:10.1.2.3) are read as
// the IPv4 address they carry, so a dual-stack listener's peers match IPv4 networks.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dp {

class IpNetwork {
 public:
  // nullopt when `cidr` is not an address with an optional /prefix in range.
  static std::optional<IpNetwork> Parse(std::string_view cidr);
  bool Contains(std::string_view address) const;

 private:
  struct Address {
    bool v6 = false;
    std::array<uint8_t, 16> bytes{};
  };
  static std::optional<Address> ParseAddress(std::string_view text);

  Address base_;
  int prefix_bits_ = 0;
};

}  // namespace dp
