#include "datapipelines/app/systemd_notifier.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>

namespace dp {
namespace {

SystemdNotifier::Environment EnvOf(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const std::string& name) -> std::optional<std::string> {
    auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

// A real datagram socket standing in for systemd's notification socket.
class NotifySocket {
 public:
  explicit NotifySocket(std::string name) : name_(std::move(name)) {
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, name_.data(), name_.size());
    if (address.sun_path[0] == '@') address.sun_path[0] = '\0';
    auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name_.size());
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&address), length), 0) << name_;
  }
  ~NotifySocket() {
    ::close(fd_);
    if (name_.starts_with('/')) std::filesystem::remove(name_);
  }
  std::string Receive() {
    char buffer[256];
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), MSG_DONTWAIT);
    return n < 0 ? std::string() : std::string(buffer, static_cast<std::size_t>(n));
  }

 private:
  std::string name_;
  int fd_ = -1;
};

TEST(SystemdNotifierTest, SendsEachStateToAPathSocket) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("dp-notify-" + std::to_string(::getpid()) + ".sock"))
                         .string();
  NotifySocket socket(path);
  auto notifier = SystemdNotifier::FromEnvironment(EnvOf({{"NOTIFY_SOCKET", path}}), ::getpid());
  ASSERT_TRUE(notifier.Enabled());
  EXPECT_TRUE(notifier.Notify("READY=1"));
  EXPECT_EQ(socket.Receive(), "READY=1");
  EXPECT_TRUE(notifier.Notify("STOPPING=1"));
  EXPECT_EQ(socket.Receive(), "STOPPING=1");
}

TEST(SystemdNotifierTest, SendsToAnAbstractSocket) {
  std::string name = "@dp-notify-abstract-" + std::to_string(::getpid());
  NotifySocket socket(name);
  auto notifier = SystemdNotifier::FromEnvironment(EnvOf({{"NOTIFY_SOCKET", name}}), ::getpid());
  EXPECT_TRUE(notifier.Notify("WATCHDOG=1"));
  EXPECT_EQ(socket.Receive(), "WATCHDOG=1");
}

TEST(SystemdNotifierTest, OutsideSystemdEveryCallIsInert) {
  auto notifier = SystemdNotifier::FromEnvironment(EnvOf({}), ::getpid());
  EXPECT_FALSE(notifier.Enabled());
  EXPECT_FALSE(notifier.Notify("READY=1"));
  EXPECT_FALSE(notifier.WatchdogPingInterval());
  auto relative = SystemdNotifier::FromEnvironment(EnvOf({{"NOTIFY_SOCKET", "relative"}}), 1);
  EXPECT_FALSE(relative.Enabled());
}

TEST(SystemdNotifierTest, WatchdogPingsAtHalfTheIntervalOnlyForItsOwnPid) {
  auto env = [](std::string pid) {
    return EnvOf(
        {{"NOTIFY_SOCKET", "/run/x"}, {"WATCHDOG_USEC", "30000000"}, {"WATCHDOG_PID", pid}});
  };
  EXPECT_EQ(SystemdNotifier::FromEnvironment(env("42"), 42).WatchdogPingInterval(),
            std::chrono::milliseconds(15000));
  EXPECT_FALSE(SystemdNotifier::FromEnvironment(env("43"), 42).WatchdogPingInterval());
  EXPECT_EQ(SystemdNotifier::FromEnvironment(env(""), 42).WatchdogPingInterval(),
            std::chrono::milliseconds(15000));
  auto bad = EnvOf({{"NOTIFY_SOCKET", "/run/x"}, {"WATCHDOG_USEC", "soon"}});
  EXPECT_FALSE(SystemdNotifier::FromEnvironment(bad, 42).WatchdogPingInterval());
}

}  // namespace
}  // namespace dp
