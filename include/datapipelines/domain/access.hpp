#pragma once
// Scopes, roles and key kinds (auth.md §7.5–7.7, workspaces design §5): ordered enums
// whose comparison is the hierarchy.
#include <optional>
#include <string_view>

namespace dp {

enum class Scope { kRead = 0, kExecute = 1, kAuthor = 2 };
enum class Role { kViewer = 0, kOperator = 1, kAuthor = 2, kWsAdmin = 3 };
enum class KeyKind { kUser, kEndpoint, kServer };

std::string_view ToString(Scope scope);
std::string_view ToString(Role role);
std::string_view ToString(KeyKind kind);
std::optional<Scope> ParseScope(std::string_view text);
std::optional<Role> ParseRole(std::string_view text);
std::optional<KeyKind> ParseKeyKind(std::string_view text);

// The highest key scope a member of the given role may issue: a key never exceeds its
// issuer (viewer → read, operator → execute, author and ws_admin → author).
Scope MaxScopeForRole(Role role);

}  // namespace dp
