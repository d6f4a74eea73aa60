#pragma once
#include <string_view>

namespace dp {

// 127.0.0.0/8 (also v4-mapped, ::ffff:127.x), ::1 or "localhost": an address only this host
// can reach — a listen address (server.address) or a client's (HttpRequest::remote_ip).
inline bool IsLoopbackAddress(std::string_view address) {
  if (address.starts_with("::ffff:")) address.remove_prefix(7);
  return address == "localhost" || address == "::1" || address.starts_with("127.");
}

}  // namespace dp
