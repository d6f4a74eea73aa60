#pragma once
// Scopes, membership capabilities and key kinds (auth.md §7.5–7.7, §11A). A key's scope is
// hierarchical; a person's capability in a workspace is three additive flags, because "an
// author who also releases" and "someone who only releases" are both real and no single
// ladder names both.
#include <optional>
#include <string>
#include <string_view>

namespace dp {

enum class Scope { kRead = 0, kExecute = 1, kAuthor = 2 };
enum class KeyKind { kUser, kEndpoint, kServer };

// A membership's flags. None set is a viewer, who reads and executes; a workspace admin
// always authors (Normalized), which is what lets every check read `author` off the row.
struct MemberFlags {
  bool author = false;
  bool promoter = false;
  bool admin = false;

  MemberFlags Normalized() const { return {author || admin, promoter, admin}; }
  bool operator==(const MemberFlags&) const = default;
};

// What an operation asks of the caller's membership (the matrix's "min role" column):
// kView and kExecute any member holds (viewers execute); kAuthor the author flag; kSwitch
// (serving another version: the rollback lever) an author or a promoter; kPromote
// (release, promote) the promoter flag or a workspace admin; kWsAdmin the admin flag;
// kSuperAdmin the instance's super admin only.
enum class RoleFloor { kView, kExecute, kAuthor, kSwitch, kPromote, kWsAdmin, kSuperAdmin };

bool Satisfies(const MemberFlags& flags, RoleFloor floor);

std::string_view ToString(Scope scope);
std::string_view ToString(RoleFloor floor);
std::string_view ToString(KeyKind kind);
std::optional<Scope> ParseScope(std::string_view text);
std::optional<KeyKind> ParseKeyKind(std::string_view text);

// "viewer", or the flags held joined by '+' ("author+promoter", "author+admin").
std::string FlagsName(const MemberFlags& flags);
// The inverse of FlagsName; also the old single roles (viewer, operator, author, ws_admin) as
// the flags they became. Nullopt for anything else.
std::optional<MemberFlags> ParseFlags(std::string_view text);

// The highest key scope a member holding `flags` may use: an author, promoter or admin works
// at author scope; a viewer executes.
Scope MaxScopeFor(const MemberFlags& flags);
// Whether a member holding `flags` may issue keys in the workspace (viewers and promoters
// never mint keys).
inline bool MayIssueKeys(const MemberFlags& flags) { return flags.author || flags.admin; }

}  // namespace dp
