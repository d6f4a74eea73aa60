// The two-axis check (MCP spec §4.1): every key scope × issuer role against every operation of
// the table, the expected outcome per floor (min scope × min role) written out by hand.
#include "datapipelines/service/identity/access_policy.hpp"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <stdexcept>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

// Columns: issuer role none (not a member), viewer, operator, author, ws_admin.
const std::array<std::optional<Role>, 5> kRoles = {std::nullopt, Role::kViewer, Role::kOperator,
                                                   Role::kAuthor, Role::kWsAdmin};
const std::array<Scope, 3> kScopes = {Scope::kRead, Scope::kExecute, Scope::kAuthor};

// '.' allowed, 'S' auth.scope.insufficient, 'L' auth.key_issuer_role_lost,
// 'R' auth.role_required, 'M' workspace.membership_required.
struct ToolRow {
  Scope min_scope;
  Role min_role;
  std::array<const char*, 3> by_key_scope;  // rows: key scope read, execute, author
};

const ToolRow kKeyMatrix[] = {
    {Scope::kRead, Role::kViewer, {"L....", "L....", "L...."}},
    {Scope::kRead, Role::kOperator, {"LR...", "LL...", "LL..."}},
    {Scope::kRead, Role::kAuthor, {"LRR..", "LLR..", "LLL.."}},
    {Scope::kRead, Role::kWsAdmin, {"LRRR.", "LLRR.", "LLLR."}},
    {Scope::kExecute, Role::kViewer, {"SSSSS", "L....", "L...."}},
    {Scope::kExecute, Role::kOperator, {"SSSSS", "LL...", "LL..."}},
    {Scope::kExecute, Role::kAuthor, {"SSSSS", "LLR..", "LLL.."}},
    {Scope::kExecute, Role::kWsAdmin, {"SSSSS", "LLRR.", "LLLR."}},
    {Scope::kAuthor, Role::kViewer, {"SSSSS", "SSSSS", "L...."}},
    {Scope::kAuthor, Role::kOperator, {"SSSSS", "SSSSS", "LL..."}},
    {Scope::kAuthor, Role::kAuthor, {"SSSSS", "SSSSS", "LLL.."}},
    {Scope::kAuthor, Role::kWsAdmin, {"SSSSS", "SSSSS", "LLLR."}},
};

// Sessions: the role is the authority (a session's scope derives from it).
const std::array<const char*, 4> kSessionByMinRole = {"M....", "MR...", "MRR..", "MRRR."};

char Outcome(const Principal& principal, Operation operation) {
  try {
    EnforceAccess(principal, operation);
    return '.';
  } catch (const DomainError& e) {
    if (e.code() == errc::kScopeInsufficient) return 'S';
    if (e.code() == errc::kKeyIssuerRoleLost) return 'L';
    if (e.code() == errc::kRoleRequired) return 'R';
    if (e.code() == errc::kWorkspaceMembershipRequired) return 'M';
    return '?';
  }
}

Principal KeyPrincipal(Scope scope, std::optional<Role> role, bool super_admin = false) {
  Principal p;
  p.user_id = "u1";
  p.key_id = "dpk_AAAAAAAAAAAA";
  p.workspace_id = "w1";
  p.workspace_name = "default";
  p.scope = scope;
  p.role = role;
  p.super_admin = super_admin;
  return p;
}

Principal SessionPrincipal(std::optional<Role> role, bool super_admin = false) {
  Principal p = KeyPrincipal(role ? MaxScopeForRole(*role) : Scope::kRead, role, super_admin);
  p.key_id.clear();
  p.via_session = true;
  return p;
}

std::string Describe(const OperationAccess& op, Scope scope, std::optional<Role> role) {
  return std::string(op.name) + "(" + std::string(ToString(op.min_scope)) + "," +
         std::string(ToString(op.min_role)) + ") key scope " + std::string(ToString(scope)) +
         " issuer role " + (role ? std::string(ToString(*role)) : "none");
}

const ToolRow& RowFor(const OperationAccess& op) {
  for (const ToolRow& row : kKeyMatrix) {
    if (row.min_scope == op.min_scope && row.min_role == op.min_role) return row;
  }
  throw std::logic_error("no matrix row");
}

TEST(AccessPolicy, EveryOperationAgainstEveryKeyScopeAndIssuerRole) {
  int cells = 0;
  for (const OperationAccess& op : AllOperations()) {
    const ToolRow& row = RowFor(op);
    for (std::size_t s = 0; s < kScopes.size(); ++s) {
      for (std::size_t r = 0; r < kRoles.size(); ++r) {
        Principal principal = KeyPrincipal(kScopes[s], kRoles[r]);
        char got = Outcome(principal, op.operation);
        EXPECT_EQ(got, row.by_key_scope[s][r]) << Describe(op, kScopes[s], kRoles[r]);
        // The question the UI asks answers as the check does.
        EXPECT_EQ(IsAllowed(principal, op.operation), got == '.') << op.name;
        ++cells;
      }
    }
  }
  EXPECT_EQ(cells, static_cast<int>(AllOperations().size()) * 3 * 5);
}

TEST(AccessPolicy, SuperAdminKeyPassesTheRoleAxisButNotTheScopeAxis) {
  for (const OperationAccess& op : AllOperations()) {
    for (Scope scope : kScopes) {
      for (const auto& role : kRoles) {
        char want = scope < op.min_scope ? 'S' : '.';
        EXPECT_EQ(Outcome(KeyPrincipal(scope, role, true), op.operation), want)
            << "super_admin " << Describe(op, scope, role);
      }
    }
  }
}

TEST(AccessPolicy, SessionsAreJudgedOnTheRole) {
  for (const OperationAccess& op : AllOperations()) {
    const char* expected = kSessionByMinRole[static_cast<std::size_t>(op.min_role)];
    for (std::size_t r = 0; r < kRoles.size(); ++r) {
      EXPECT_EQ(Outcome(SessionPrincipal(kRoles[r]), op.operation), expected[r])
          << "session " << Describe(op, Scope::kRead, kRoles[r]);
      EXPECT_EQ(IsAllowed(SessionPrincipal(kRoles[r]), op.operation), expected[r] == '.')
          << op.name;
      EXPECT_EQ(Outcome(SessionPrincipal(kRoles[r], true), op.operation), '.');
    }
  }
}

TEST(AccessPolicy, OperationsAreNamedOnceAndIndexTheirOwnRow) {
  std::set<std::string_view> names;
  for (const OperationAccess& op : AllOperations()) {
    EXPECT_TRUE(names.insert(op.name).second) << op.name;
    EXPECT_EQ(&AccessOf(op.operation), &op) << op.name;
  }
}

TEST(AccessPolicy, ScopeInsufficientCarriesRequiredAndGranted) {
  try {
    EnforceAccess(KeyPrincipal(Scope::kRead, Role::kAuthor), Operation::kTemplatesCreate);
    FAIL() << "expected auth.scope.insufficient";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kScopeInsufficient);
    EXPECT_EQ(e.http_status(), 403);
    EXPECT_EQ(e.details(), (Json{{"required", "author"}, {"granted", "read"}}));
  }
}

TEST(AccessPolicy, RoleRequiredCarriesRequiredAndRole) {
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, Role::kAuthor), Operation::kDatasourcesCreate);
    FAIL() << "expected auth.role_required";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kRoleRequired);
    EXPECT_EQ(e.details(), (Json{{"required", "ws_admin"}, {"role", "author"}}));
  }
}

TEST(AccessPolicy, IssuerRoleLostCarriesTheCurrentRoleOrNull) {
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, std::nullopt), Operation::kTemplatesList);
    FAIL() << "expected auth.key_issuer_role_lost";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kKeyIssuerRoleLost);
    EXPECT_EQ(e.details(), (Json{{"required", "viewer"}, {"role", nullptr}}));
  }
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, Role::kViewer), Operation::kTemplatesCreate);
    FAIL() << "expected auth.key_issuer_role_lost";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kKeyIssuerRoleLost);
    EXPECT_EQ(e.details(), (Json{{"required", "author"}, {"role", "viewer"}}));
  }
}

}  // namespace
}  // namespace dp
