#pragma once
#include <stdexcept>
#include <string>

#include "datapipelines/domain/error_code.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

// The one failure type services raise. mcp/ and rest/ translate it to an isError tool
// result or a REST error envelope; both carry exactly ToJson().
class DomainError : public std::runtime_error {
 public:
  DomainError(ErrorCode code, std::string message, Json details = nullptr);

  const ErrorCode& code() const { return code_; }
  const Json& details() const { return details_; }
  int http_status() const { return code_.http_status; }

  // {"code", "message", "details"?} — the REST error object (REST API §4.2) — plus the
  // members of `record` when one is attached.
  Json ToJson() const;

  // An execution failure carries the whole failure record (spec §6.3: node, sql, exception,
  // correlation_id, execution_id) beside code/message/details.
  DomainError& WithRecord(Json record) {
    record_ = std::move(record);
    return *this;
  }

 private:
  ErrorCode code_;
  Json details_;
  Json record_;
};

// A refusal because something the server depends on cannot serve now (503 unavailable, 507 out
// of storage): the caller's to retry later, never the caller's mistake nor a server bug.
inline bool IsOutage(const DomainError& error) {
  return error.http_status() == 503 || error.http_status() == 507;
}

}  // namespace dp
