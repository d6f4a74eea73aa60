#include "datapipelines/util/ip_network.hpp"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>

namespace dp {

std::optional<IpNetwork::Address> IpNetwork::ParseAddress(std::string_view text) {
  const std::string copy(text);
  Address address;
  if (inet_pton(AF_INET, copy.c_str(), address.bytes.data()) == 1) return address;
  if (inet_pton(AF_INET6, copy.c_str(), address.bytes.data()) != 1) return std::nullopt;
  static constexpr uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(address.bytes.data(), kMapped, sizeof kMapped) == 0) {
    std::memmove(address.bytes.data(), address.bytes.data() + 12, 4);  // the IPv4 it carries
    std::memset(address.bytes.data() + 4, 0, 12);
    return address;
  }
  address.v6 = true;
  return address;
}

std::optional<IpNetwork> IpNetwork::Parse(std::string_view cidr) {
  const auto slash = cidr.find('/');
  auto base = ParseAddress(cidr.substr(0, slash));
  if (!base) return std::nullopt;
  const int max_bits = base->v6 ? 128 : 32;
  int bits = max_bits;
  if (slash != std::string_view::npos) {
    const std::string_view digits = cidr.substr(slash + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || bits < 0 ||
        bits > max_bits) {
      return std::nullopt;
    }
  }
  IpNetwork network;
  network.base_ = *base;
  network.prefix_bits_ = bits;
  return network;
}

bool IpNetwork::Contains(std::string_view text) const {
  auto address = ParseAddress(text);
  if (!address || address->v6 != base_.v6) return false;
  int bits = prefix_bits_;
  for (std::size_t i = 0; bits > 0; ++i, bits -= 8) {
    const uint8_t mask = bits >= 8 ? 0xff : static_cast<uint8_t>(0xff << (8 - bits));
    if ((address->bytes[i] & mask) != (base_.bytes[i] & mask)) return false;
  }
  return true;
}

}  // namespace dp
