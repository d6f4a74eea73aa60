#pragma once
// Whether the far end of an idle pooled connection has gone: a database or Redis that
// restarted closed every socket it had, and the kernel already knows. Asking costs one
// non-blocking poll, no round trip, so a pool can check every idle connection it hands out
// instead of failing the first statement sent down a dead one.

namespace dp {

// True when `fd` is invalid, in error, or its peer has closed (hang-up or end of stream).
// Pending bytes alone do not count: an idle connection may hold a notice.
bool PeerHasClosed(int fd);

}  // namespace dp
