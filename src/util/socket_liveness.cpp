#include "datapipelines/util/socket_liveness.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace dp {

bool PeerHasClosed(int fd) {
  if (fd < 0) return true;
  pollfd probe{fd, POLLIN | POLLRDHUP, 0};
  if (::poll(&probe, 1, 0) < 0) return errno != EINTR;
  if (probe.revents & (POLLERR | POLLHUP | POLLRDHUP | POLLNVAL)) return true;
  if (!(probe.revents & POLLIN)) return false;
  char byte;
  const ssize_t peeked = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (peeked > 0) return false;
  if (peeked == 0) return true;  // end of stream
  return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

}  // namespace dp
