#include "datapipelines/app/systemd_notifier.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

namespace dp {

namespace {

std::optional<long long> ParsePositive(const std::optional<std::string>& text) {
  if (!text || text->empty()) return std::nullopt;
  long long value = 0;
  for (char c : *text) {
    if (c < '0' || c > '9' || value > (1LL << 50)) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value > 0 ? std::optional<long long>(value) : std::nullopt;
}

}  // namespace

SystemdNotifier SystemdNotifier::FromEnvironment(const Environment& environment, long own_pid) {
  SystemdNotifier notifier;
  auto socket_path = environment("NOTIFY_SOCKET");
  // Only a path or an abstract name fits sockaddr_un; anything else is ignored.
  if (socket_path && (socket_path->starts_with('/') || socket_path->starts_with('@')) &&
      socket_path->size() < sizeof(sockaddr_un::sun_path)) {
    notifier.socket_path_ = *socket_path;
  }
  auto usec = ParsePositive(environment("WATCHDOG_USEC"));
  auto pid = environment("WATCHDOG_PID");
  bool for_us = !pid || pid->empty() || ParsePositive(pid) == own_pid;
  if (usec && for_us) notifier.watchdog_ = std::chrono::microseconds(*usec);
  return notifier;
}

std::optional<std::chrono::milliseconds> SystemdNotifier::WatchdogPingInterval() const {
  if (!Enabled() || !watchdog_) return std::nullopt;
  auto half = std::chrono::duration_cast<std::chrono::milliseconds>(*watchdog_ / 2);
  return std::max(half, std::chrono::milliseconds(1));
}

bool SystemdNotifier::Notify(std::string_view state) const {
  if (!Enabled()) return false;
  int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, socket_path_.data(), socket_path_.size());
  if (address.sun_path[0] == '@') address.sun_path[0] = '\0';
  auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + socket_path_.size());
  ssize_t sent = ::sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
                          reinterpret_cast<const sockaddr*>(&address), length);
  ::close(fd);
  return sent == static_cast<ssize_t>(state.size());
}

}  // namespace dp
