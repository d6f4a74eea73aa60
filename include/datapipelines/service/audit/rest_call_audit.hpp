#pragma once
// The REST audit choke point (issue 13, the MCP dispatcher's `mcp.tool.write` twin): every
// mutating /api/v1 call an authenticated principal makes leaves exactly one `rest.write` row,
// whatever its outcome. RestApi calls it at the one place every route passes; what the row
// holds is decided here: actor, credential (key id, or `auth: session`), operation, target,
// outcome, status, error code and correlation id. Never the body, the query string, a secret
// or SQL: the path names only identifiers (a key's id is its public half).
#include <string>
#include <string_view>

#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class RestCallAudit {
 public:
  explicit RestCallAudit(AuditLog& audit) : audit_(audit) {}

  // Whether a call with this method writes a row (everything but GET, HEAD and OPTIONS).
  static bool IsMutating(std::string_view method);

  // outcome: "success" | "error" | "internal_error"; code "" on success. Never throws.
  void Record(const Principal& principal, std::string_view method, std::string_view path,
              int status, std::string_view outcome, std::string_view code,
              const std::string& correlation_id, const std::string& source_ip) noexcept;

 private:
  AuditLog& audit_;
};

}  // namespace dp
