#include "datapipelines/domain/access.hpp"

namespace dp {

std::string_view ToString(Scope scope) {
  switch (scope) {
    case Scope::kRead:
      return "read";
    case Scope::kExecute:
      return "execute";
    case Scope::kAuthor:
      return "author";
  }
  return "read";
}

std::string_view ToString(Role role) {
  switch (role) {
    case Role::kViewer:
      return "viewer";
    case Role::kOperator:
      return "operator";
    case Role::kAuthor:
      return "author";
    case Role::kWsAdmin:
      return "ws_admin";
  }
  return "viewer";
}

std::string_view ToString(KeyKind kind) {
  switch (kind) {
    case KeyKind::kUser:
      return "user";
    case KeyKind::kEndpoint:
      return "endpoint";
    case KeyKind::kServer:
      return "server";
  }
  return "user";
}

std::optional<Scope> ParseScope(std::string_view text) {
  if (text == "read") return Scope::kRead;
  if (text == "execute") return Scope::kExecute;
  if (text == "author") return Scope::kAuthor;
  return std::nullopt;
}

std::optional<Role> ParseRole(std::string_view text) {
  if (text == "viewer") return Role::kViewer;
  if (text == "operator") return Role::kOperator;
  if (text == "author") return Role::kAuthor;
  if (text == "ws_admin") return Role::kWsAdmin;
  return std::nullopt;
}

std::optional<KeyKind> ParseKeyKind(std::string_view text) {
  if (text == "user") return KeyKind::kUser;
  if (text == "endpoint") return KeyKind::kEndpoint;
  if (text == "server") return KeyKind::kServer;
  return std::nullopt;
}

Scope MaxScopeForRole(Role role) {
  switch (role) {
    case Role::kViewer:
      return Scope::kRead;
    case Role::kOperator:
      return Scope::kExecute;
    case Role::kAuthor:
    case Role::kWsAdmin:
      return Scope::kAuthor;
  }
  return Scope::kRead;
}

}  // namespace dp
