#pragma once
// How a metadata store adapter reports that its database cannot serve right now: an outage
// is the caller's to retry, not a server bug. Both are DomainErrors with a Retry-After hint,
// so REST, MCP and the UI answer them with their catalogued code (503 / 507) unchanged. The
// adapter's own diagnosis goes to the log (rate-limited), never to the caller.
#include <string>
#include <string_view>

namespace dp {

// The database is unreachable, restarting, refusing connections, or the pool has no free
// connection within its wait: service.metadata_unavailable (503).
[[noreturn]] void ThrowMetadataUnavailable(std::string_view backend, const std::string& why);
// The disk under the database is full: service.metadata_storage_full (507). Nothing of the
// refused write was kept.
[[noreturn]] void ThrowMetadataStorageFull(std::string_view backend, const std::string& why);

}  // namespace dp
