#include "datapipelines/domain/access.hpp"

namespace dp {

bool Satisfies(const MemberFlags& given, RoleFloor floor) {
  const MemberFlags flags = given.Normalized();
  switch (floor) {
    case RoleFloor::kView:
    case RoleFloor::kExecute:
      return true;
    case RoleFloor::kAuthor:
      return flags.author;
    case RoleFloor::kSwitch:
      return flags.author || flags.promoter;
    case RoleFloor::kPromote:
      return flags.promoter || flags.admin;
    case RoleFloor::kWsAdmin:
      return flags.admin;
    case RoleFloor::kSuperAdmin:
      return false;
  }
  return false;
}

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

std::string_view ToString(RoleFloor floor) {
  switch (floor) {
    case RoleFloor::kView:
      return "view";
    case RoleFloor::kExecute:
      return "execute";
    case RoleFloor::kAuthor:
      return "author";
    case RoleFloor::kSwitch:
      return "switch";
    case RoleFloor::kPromote:
      return "promote";
    case RoleFloor::kWsAdmin:
      return "ws_admin";
    case RoleFloor::kSuperAdmin:
      return "super_admin";
  }
  return "view";
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

std::optional<KeyKind> ParseKeyKind(std::string_view text) {
  if (text == "user") return KeyKind::kUser;
  if (text == "endpoint") return KeyKind::kEndpoint;
  if (text == "server") return KeyKind::kServer;
  return std::nullopt;
}

std::string FlagsName(const MemberFlags& given) {
  const MemberFlags flags = given.Normalized();
  std::string name;
  auto add = [&](bool held, std::string_view flag) {
    if (!held) return;
    if (!name.empty()) name += '+';
    name += flag;
  };
  add(flags.author, "author");
  add(flags.promoter, "promoter");
  add(flags.admin, "admin");
  return name.empty() ? "viewer" : name;
}

std::optional<MemberFlags> ParseFlags(std::string_view text) {
  if (text == "viewer" || text == "operator") return MemberFlags{};
  if (text == "ws_admin") return MemberFlags{true, false, true};
  MemberFlags flags;
  while (!text.empty()) {
    std::size_t end = text.find_first_of("+,");
    std::string_view flag = text.substr(0, end);
    if (flag == "author") {
      flags.author = true;
    } else if (flag == "promoter") {
      flags.promoter = true;
    } else if (flag == "admin") {
      flags.admin = true;
    } else {
      return std::nullopt;
    }
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  return flags.Normalized();
}

Scope MaxScopeFor(const MemberFlags& given) {
  const MemberFlags flags = given.Normalized();
  return flags.author || flags.promoter ? Scope::kAuthor : Scope::kExecute;
}

}  // namespace dp
