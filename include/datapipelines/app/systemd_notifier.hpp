#pragma once
// systemd's service notification protocol (sd_notify(3)): READY=1 once the server listens,
// STOPPING=1 when a graceful shutdown begins, WATCHDOG=1 from the event loop while it runs.
// The protocol is one datagram on the socket named by $NOTIFY_SOCKET, so it is spoken here
// directly rather than by linking libsystemd into every build; outside systemd (no
// $NOTIFY_SOCKET) every call does nothing.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace dp {

class SystemdNotifier {
 public:
  using Environment = std::function<std::optional<std::string>(const std::string&)>;

  // Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID (the watchdog applies only when its
  // pid is ours, or unset).
  static SystemdNotifier FromEnvironment(const Environment& environment, long own_pid);

  bool Enabled() const { return !socket_path_.empty(); }
  // How often to send WATCHDOG=1: half the unit's WatchdogSec, or nullopt when it has none.
  std::optional<std::chrono::milliseconds> WatchdogPingInterval() const;

  // Sends one state line ("READY=1", "STOPPING=1", "WATCHDOG=1", "STATUS=…"); false when
  // disabled or the send failed (never throws: a notification is best effort).
  bool Notify(std::string_view state) const;

 private:
  std::string socket_path_;  // "@name" is an abstract socket
  std::optional<std::chrono::microseconds> watchdog_;
};

}  // namespace dp
