// The two-axis check (MCP spec §4.1): every key scope × issuer's flags against every operation of
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

// Columns: issuer not a member, viewer (no flag), promoter, author, author+promoter, admin.
const std::array<std::optional<MemberFlags>, 6> kHolders = {
    std::nullopt,          MemberFlags{},
    MemberFlags{false, true, false}, MemberFlags{true, false, false},
    MemberFlags{true, true, false},  MemberFlags{true, false, true}};
const std::array<Scope, 3> kScopes = {Scope::kRead, Scope::kExecute, Scope::kAuthor};

// '.' allowed, 'S' auth.scope.insufficient, 'L' auth.key_issuer_role_lost,
// 'R' auth.role_required, 'M' workspace.membership_required. Viewers work at execute scope at
// most, everyone holding a flag at author scope: a key above what its issuer can still use is
// "role lost", a key within it asking for a capability its issuer never had "role required".
struct ToolRow {
  Scope min_scope;
  RoleFloor min_role;
  std::array<const char*, 3> by_key_scope;  // rows: key scope read, execute, author
};

const ToolRow kKeyMatrix[] = {
    {Scope::kRead, RoleFloor::kView, {"L.....", "L.....", "L....."}},
    {Scope::kRead, RoleFloor::kExecute, {"L.....", "L.....", "L....."}},
    {Scope::kRead, RoleFloor::kAuthor, {"LRR...", "LRR...", "LLR..."}},
    {Scope::kRead, RoleFloor::kSwitch, {"LR....", "LR....", "LL...."}},
    {Scope::kRead, RoleFloor::kPromote, {"LR.R..", "LR.R..", "LL.R.."}},
    {Scope::kRead, RoleFloor::kWsAdmin, {"LRRRR.", "LRRRR.", "LLRRR."}},
    {Scope::kRead, RoleFloor::kSuperAdmin, {"RRRRRR", "RRRRRR", "RRRRRR"}},
    {Scope::kExecute, RoleFloor::kView, {"SSSSSS", "L.....", "L....."}},
    {Scope::kExecute, RoleFloor::kExecute, {"SSSSSS", "L.....", "L....."}},
    {Scope::kExecute, RoleFloor::kAuthor, {"SSSSSS", "LRR...", "LLR..."}},
    {Scope::kExecute, RoleFloor::kSwitch, {"SSSSSS", "LR....", "LL...."}},
    {Scope::kExecute, RoleFloor::kPromote, {"SSSSSS", "LR.R..", "LL.R.."}},
    {Scope::kExecute, RoleFloor::kWsAdmin, {"SSSSSS", "LRRRR.", "LLRRR."}},
    {Scope::kExecute, RoleFloor::kSuperAdmin, {"SSSSSS", "RRRRRR", "RRRRRR"}},
    {Scope::kAuthor, RoleFloor::kView, {"SSSSSS", "SSSSSS", "L....."}},
    {Scope::kAuthor, RoleFloor::kExecute, {"SSSSSS", "SSSSSS", "L....."}},
    {Scope::kAuthor, RoleFloor::kAuthor, {"SSSSSS", "SSSSSS", "LLR..."}},
    {Scope::kAuthor, RoleFloor::kSwitch, {"SSSSSS", "SSSSSS", "LL...."}},
    {Scope::kAuthor, RoleFloor::kPromote, {"SSSSSS", "SSSSSS", "LL.R.."}},
    {Scope::kAuthor, RoleFloor::kWsAdmin, {"SSSSSS", "SSSSSS", "LLRRR."}},
    {Scope::kAuthor, RoleFloor::kSuperAdmin, {"SSSSSS", "SSSSSS", "RRRRRR"}},
};

// Sessions: the flags are the authority (a session carries no scope of its own). Indexed by
// the floor, in RoleFloor's order.
const std::array<const char*, 7> kSessionByMinRole = {"M.....", "M.....", "MRR...", "MR....",
                                                      "MR.R..", "MRRRR.", "RRRRRR"};

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

Principal KeyPrincipal(Scope scope, std::optional<MemberFlags> flags, bool super_admin = false) {
  Principal p;
  p.user_id = "u1";
  p.key_id = "dpk_AAAAAAAAAAAA";
  p.workspace_id = "w1";
  p.workspace_name = "default";
  p.scope = scope;
  p.membership = flags;
  p.super_admin = super_admin;
  return p;
}

Principal SessionPrincipal(std::optional<MemberFlags> flags, bool super_admin = false) {
  Principal p = KeyPrincipal(flags ? MaxScopeFor(*flags) : Scope::kRead, flags, super_admin);
  p.key_id.clear();
  p.via_session = true;
  return p;
}

std::string Describe(const OperationAccess& op, Scope scope, std::optional<MemberFlags> flags) {
  return std::string(op.name) + "(" + std::string(ToString(op.min_scope)) + "," +
         std::string(ToString(op.min_role)) + ") key scope " + std::string(ToString(scope)) +
         " issuer " + (flags ? FlagsName(*flags) : "not a member");
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
      for (std::size_t r = 0; r < kHolders.size(); ++r) {
        Principal principal = KeyPrincipal(kScopes[s], kHolders[r]);
        char got = Outcome(principal, op.operation);
        EXPECT_EQ(got, row.by_key_scope[s][r]) << Describe(op, kScopes[s], kHolders[r]);
        // The question the UI asks answers as the check does.
        EXPECT_EQ(IsAllowed(principal, op.operation), got == '.') << op.name;
        ++cells;
      }
    }
  }
  EXPECT_EQ(cells, static_cast<int>(AllOperations().size()) * 3 * 6);
}

TEST(AccessPolicy, SuperAdminKeyPassesTheRoleAxisButNotTheScopeAxis) {
  for (const OperationAccess& op : AllOperations()) {
    for (Scope scope : kScopes) {
      for (const auto& role : kHolders) {
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
    for (std::size_t r = 0; r < kHolders.size(); ++r) {
      EXPECT_EQ(Outcome(SessionPrincipal(kHolders[r]), op.operation), expected[r])
          << "session " << Describe(op, Scope::kRead, kHolders[r]);
      EXPECT_EQ(IsAllowed(SessionPrincipal(kHolders[r]), op.operation), expected[r] == '.')
          << op.name;
      EXPECT_EQ(Outcome(SessionPrincipal(kHolders[r], true), op.operation), '.');
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
    EnforceAccess(KeyPrincipal(Scope::kRead, MemberFlags{true, false, false}),
                  Operation::kTemplatesCreate);
    FAIL() << "expected auth.scope.insufficient";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kScopeInsufficient);
    EXPECT_EQ(e.http_status(), 403);
    EXPECT_EQ(e.details(), (Json{{"required", "author"}, {"granted", "read"}}));
  }
}

TEST(AccessPolicy, RoleRequiredCarriesRequiredAndHeld) {
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, MemberFlags{true, false, false}),
                  Operation::kDatasourcesCreate);
    FAIL() << "expected auth.role_required";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kRoleRequired);
    EXPECT_EQ(e.details(), (Json{{"required", "ws_admin"}, {"held", "author"}}));
  }
  // Releasing is the promoter's verb, not every author's.
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, MemberFlags{true, false, false}),
                  Operation::kPipelinesRelease);
    FAIL() << "expected auth.role_required";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kRoleRequired);
    EXPECT_EQ(e.details(), (Json{{"required", "promote"}, {"held", "author"}}));
  }
}

TEST(AccessPolicy, IssuerRoleLostCarriesTheCurrentRoleOrNull) {
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, std::nullopt), Operation::kTemplatesList);
    FAIL() << "expected auth.key_issuer_role_lost";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kKeyIssuerRoleLost);
    EXPECT_EQ(e.details(), (Json{{"required", "view"}, {"held", nullptr}}));
  }
  try {
    EnforceAccess(KeyPrincipal(Scope::kAuthor, MemberFlags{}), Operation::kTemplatesCreate);
    FAIL() << "expected auth.key_issuer_role_lost";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kKeyIssuerRoleLost);
    EXPECT_EQ(e.details(), (Json{{"required", "author"}, {"held", "viewer"}}));
  }
}

}  // namespace
}  // namespace dp
