// The outbound fetch the OIDC sign-in uses: a server that accepts the connection and then says
// nothing fails the request at the I/O timeout instead of holding the caller's thread.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "datapipelines/http/http_client.hpp"

namespace dp {
namespace {

TEST(HttpFetchTest, ASilentServerFailsTheRequestAtTheIoTimeout) {
  // Listening but never accepting: the kernel completes the handshake, nobody answers.
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t length = sizeof address;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/x";

  HttpFetch fetch = MakeHttpFetch(1 << 20, std::chrono::seconds(1));
  const auto started = std::chrono::steady_clock::now();
  EXPECT_THROW(fetch(HttpFetchRequest{"GET", url, {}, ""}), std::runtime_error);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  ::close(listener);
}

}  // namespace
}  // namespace dp
