// The two-axis check (MCP spec §4.1): every key scope × issuer role for every tool
// requirement (min scope × min role), as a table written out by hand.
#include "datapipelines/auth/access_policy.hpp"

#include <gtest/gtest.h>

#include <array>

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

char Outcome(const Principal& principal, Scope min_scope, Role min_role) {
  try {
    EnforceAccess(principal, min_scope, min_role);
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

std::string Describe(Scope min_scope, Role min_role, Scope scope, std::optional<Role> role) {
  return "tool(" + std::string(ToString(min_scope)) + "," + std::string(ToString(min_role)) +
         ") key scope " + std::string(ToString(scope)) + " issuer role " +
         (role ? std::string(ToString(*role)) : "none");
}

TEST(AccessPolicy, KeyMatrixCoversEveryScopeAndRole) {
  int cells = 0;
  for (const ToolRow& tool : kKeyMatrix) {
    for (std::size_t s = 0; s < kScopes.size(); ++s) {
      for (std::size_t r = 0; r < kRoles.size(); ++r) {
        char got = Outcome(KeyPrincipal(kScopes[s], kRoles[r]), tool.min_scope, tool.min_role);
        EXPECT_EQ(got, tool.by_key_scope[s][r])
            << Describe(tool.min_scope, tool.min_role, kScopes[s], kRoles[r]);
        ++cells;
      }
    }
  }
  EXPECT_EQ(cells, 12 * 3 * 5);
}

TEST(AccessPolicy, SuperAdminKeyPassesTheRoleAxisButNotTheScopeAxis) {
  for (const ToolRow& tool : kKeyMatrix) {
    for (Scope scope : kScopes) {
      for (const auto& role : kRoles) {
        char want = scope < tool.min_scope ? 'S' : '.';
        EXPECT_EQ(Outcome(KeyPrincipal(scope, role, true), tool.min_scope, tool.min_role), want)
            << "super_admin " << Describe(tool.min_scope, tool.min_role, scope, role);
      }
    }
  }
}

TEST(AccessPolicy, SessionsAreJudgedOnTheRole) {
  const std::array<Role, 4> min_roles = {Role::kViewer, Role::kOperator, Role::kAuthor,
                                         Role::kWsAdmin};
  for (std::size_t m = 0; m < min_roles.size(); ++m) {
    for (Scope min_scope : kScopes) {
      for (std::size_t r = 0; r < kRoles.size(); ++r) {
        EXPECT_EQ(Outcome(SessionPrincipal(kRoles[r]), min_scope, min_roles[m]),
                  kSessionByMinRole[m][r])
            << "session " << Describe(min_scope, min_roles[m], Scope::kRead, kRoles[r]);
        EXPECT_EQ(Outcome(SessionPrincipal(kRoles[r], true), min_scope, min_roles[m]), '.');
      }
    }
  }
}

TEST(AccessPolicy, ScopeInsufficientCarriesRequiredAndGranted) {
  try {
    EnforceAccess(KeyPrincipal(Scope::kRead, Role::kAuthor), Scope::kAuthor, Role::kViewer);
    FAIL() << "expected auth.scope.insufficient";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kScopeInsufficient);
    EXPECT_EQ(e.http_status(), 403);
    EXPECT_EQ(e.details(), (Json{{"required", "author"}, {"granted", "read"}}));
  }
}

TEST(AccessPolicy, RoleRequiredCarriesRequiredAndRole) {
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, Role::kAuthor), Scope::kAuthor, Role::kWsAdmin);
    FAIL() << "expected auth.role_required";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kRoleRequired);
    EXPECT_EQ(e.details(), (Json{{"required", "ws_admin"}, {"role", "author"}}));
  }
}

TEST(AccessPolicy, IssuerRoleLostCarriesTheCurrentRoleOrNull) {
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, std::nullopt), Scope::kRead, Role::kViewer);
    FAIL() << "expected auth.key_issuer_role_lost";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kKeyIssuerRoleLost);
    EXPECT_EQ(e.details(), (Json{{"required", "viewer"}, {"role", nullptr}}));
  }
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, Role::kViewer), Scope::kAuthor, Role::kAuthor);
    FAIL() << "expected auth.key_issuer_role_lost";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kKeyIssuerRoleLost);
    EXPECT_EQ(e.details(), (Json{{"required", "author"}, {"role", "viewer"}}));
  }
}

}  // namespace
}  // namespace dp
