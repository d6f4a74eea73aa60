#pragma once
// The two access events every surface writes the same way (auth.md §10.1): auth.scope.denied,
// one row per call refused on either axis of the operation matrix, and auth.super_admin_acting,
// one row per call a super admin makes in a workspace where they hold no membership of their
// own — reads included, because the one person exempt from "a workspace you cannot reach does
// not exist" is the one whose reads most need to be on the record.
#include <string_view>

#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

// Where a call was made: the REST method and path, the UI page, or the MCP tool.
struct AccessTarget {
  std::string_view surface;  // "rest" | "ui" | "mcp"
  std::string_view method;   // HTTP method, or "tools/call"
  std::string_view path;     // path, or the tool's name
  std::string_view correlation_id;
  std::string_view source_ip;
};

// Whether `code` is a refusal of the operation matrix (scope, role, issuer role, membership).
bool IsAccessRefusal(std::string_view code);

// Writes auth.scope.denied when `code` is an access refusal; nothing otherwise.
void RecordAccessRefusal(AuditLog& audit, const Principal& principal, std::string_view code,
                         const AccessTarget& target);
// Writes auth.super_admin_acting when the principal acts as an implicit member; nothing
// otherwise.
void RecordSuperAdminActing(AuditLog& audit, const Principal& principal,
                            const AccessTarget& target);

}  // namespace dp
