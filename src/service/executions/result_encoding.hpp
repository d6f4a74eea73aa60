#pragma once
// The shapes a stored caller result is served in (rest-api §7.3, §7.5; spec §6.2.15): a JSON
// page, or the whole result as CSV (or Arrow) inlined as base64 under the inline cap, else a
// pointer to the REST cursor.
#include <cstdint>
#include <string>

#include "datapipelines/results/result_store.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// Adds schema, warnings?, rows, row_count, offset, limit, total_rows, has_more to `out`.
void AppendPage(Json& out, const ResultPage& page, int64_t offset, int64_t limit);

[[noreturn]] void ThrowExpired(const std::string& execution_id, const std::string& expires_at);

// The whole result as RFC 4180 CSV with a header row; wire strings for big numbers.
std::string ResultCsv(const ResultPage& all);

Json EncodedResult(const std::string& execution_id, const ResultPage& all,
                   const std::string& format, const std::string& expires_at,
                   const std::string& result_url, int64_t inline_cap_bytes);

}  // namespace dp
