#include "datapipelines/service/identity/api_key_service.hpp"

#include <algorithm>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/service/identity/api_key_format.hpp"
#include "datapipelines/service/identity/authenticator.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

Json HeldDetail(const std::optional<MemberFlags>& membership) {
  return membership ? Json(FlagsName(*membership)) : Json(nullptr);
}

// Server and endpoint keys carry more than their scope says (§7.6, §7.7): who may mint them.
void RequireKindMintableBy(const Principal& issuer, KeyKind kind) {
  if (kind == KeyKind::kServer) {
    // Whoever holds a server key writes released content into this deployment.
    if (!issuer.via_session && issuer.super_admin) {
      throw DomainError(errc::kScopeInsufficient,
                        "A server key is minted by a super admin signed in; no API key holds "
                        "the admin scope it needs.",
                        {{"required", "admin"},
                         {"granted", ToString(issuer.scope)},
                         {"reason", "server_key_needs_admin"}});
    }
    if (!issuer.super_admin) {
      throw DomainError(errc::kRoleRequired, "A server key is minted by a super admin only.",
                        {{"required", "super_admin"},
                         {"held", HeldDetail(issuer.membership)},
                         {"reason", "server_key_needs_admin"}});
    }
  }
  if (kind == KeyKind::kEndpoint && !issuer.via_session && issuer.scope < Scope::kAuthor) {
    // Binding keys to endpoint paths is an authoring act on both axes.
    throw DomainError(errc::kScopeInsufficient,
                      "An endpoint key is minted with author scope; this key's scope is '" +
                          std::string(ToString(issuer.scope)) + "'.",
                      {{"required", "author"}, {"granted", ToString(issuer.scope)}});
  }
}

std::vector<ApiKeyRecord> WithoutSecrets(std::vector<ApiKeyRecord> keys) {
  for (auto& key : keys) key = WithoutSecret(std::move(key));
  return keys;
}

}  // namespace

ApiKeyService::ApiKeyService(const AuthRecords& records, Authenticator& authenticator)
    : records_(records), authenticator_(authenticator) {}

IssuedApiKey ApiKeyService::CreateApiKey(const Principal& issuer,
                                         const CreateApiKeyRequest& request) {
  auto user = records_.users().FindUserById(issuer.user_id);
  if (!user) throw DomainError(errc::kUserNotFound, "the issuing user no longer exists");
  if (!user->is_active) throw DomainError(errc::kLoginUserInactive, "this account is deactivated");
  const std::string& name =
      request.workspace_name.empty() ? issuer.workspace_name : request.workspace_name;
  if (name.empty()) {
    throw DomainError(errc::kRequestInvalid, "no active workspace: name the workspace for the key",
                      {{"field", "workspace"}});
  }
  Workspace workspace = records_.RequireWorkspace(name);
  std::optional<Scope> cap;
  if (!issuer.via_session) {
    // A key stays inside its pinned workspace and never mints more than its own scope.
    if (workspace.id != issuer.workspace_id) {
      throw DomainError(errc::kWorkspaceMembershipRequired,
                        "an API key may only issue keys in its own workspace",
                        {{"workspace", workspace.name}});
    }
    cap = issuer.scope;
  }
  RequireKindMintableBy(issuer, request.kind);
  return IssueKey(*user, workspace, cap, request, issuer.via_session ? "session" : issuer.key_id,
                  true);
}

ApiKeyIssueRequest ApiKeyIssueRequest::FromJson(const Json& body) {
  ApiKeyIssueRequest request;
  CreateApiKeyRequest& key = request.key;
  key.name = RequiredStringField(body, "name");
  request.scope_stated = body.contains("scope");
  key.scope =
      ApiKeyService::ParseRequestedScope(OptionalStringField(body, "scope").value_or("read"));
  auto kind = ParseKeyKind(OptionalStringField(body, "kind").value_or("user"));
  if (!kind) throw InvalidRequestField("kind", "must be user, endpoint or server");
  key.kind = *kind;
  if (body.contains("bindings") && !body["bindings"].is_null()) {
    const Json& bindings = body["bindings"];
    const bool paths =
        bindings.is_array() && std::all_of(bindings.begin(), bindings.end(),
                                           [](const Json& node) { return node.is_string(); });
    if (!paths) throw InvalidRequestField("bindings", "must be an array of endpoint paths");
    for (const Json& node : bindings) request.bindings.push_back(node.get<std::string>());
  }
  key.workspace_name = OptionalStringField(body, "workspace").value_or("");
  if (body.contains("expires_at") && !body["expires_at"].is_null()) {
    key.expires_at_ms = ParseIso8601Utc(RequiredStringField(body, "expires_at"));
    if (!key.expires_at_ms) {
      throw InvalidRequestField("expires_at",
                                "must be an ISO-8601 UTC timestamp like 2026-12-31T00:00:00Z");
    }
  }
  return request;
}

IssuedApiKey ApiKeyService::CreateApiKey(const Principal& issuer,
                                         const ApiKeyIssueRequest& request) {
  if (!request.bindings.empty()) {
    throw DomainError(errc::kRequestInvalid, "This server does not serve endpoint bindings.",
                      Json{{"field", "bindings"}});
  }
  return CreateApiKey(issuer, request.key);
}

Scope ApiKeyService::ParseRequestedScope(std::string_view text) {
  if (text == "admin") {
    throw DomainError(
        errc::kKeyScopeUnavailable,
        "No API key may hold the admin scope; the instance verbs are a signed-in "
        "super admin's (auth.md 7.5).",
        {{"field", "scope"}, {"allowed", Json::array({"read", "execute", "author"})}});
  }
  auto scope = ParseScope(text);
  if (!scope) {
    throw DomainError(errc::kRequestInvalid, "'scope' must be read, execute or author.",
                      {{"field", "scope"}});
  }
  return *scope;
}

Scope ApiKeyService::IssuableScope(const User& issuer, const Workspace& workspace,
                                   std::optional<Scope> issuer_scope_cap, bool require_author) {
  auto membership = records_.CurrentFlags(workspace.id, issuer.id);
  if (!membership && !issuer.is_super_admin) {
    throw DomainError(errc::kWorkspaceMembershipRequired,
                      "the issuer is not a member of workspace '" + workspace.name + "'",
                      {{"workspace", workspace.name}});
  }
  // Viewers and promoters never mint keys (auth.md §11A.4, O-2).
  if (require_author && !issuer.is_super_admin && !MayIssueKeys(*membership)) {
    throw DomainError(
        errc::kRoleRequired,
        "Issuing an API key needs the author flag in workspace '" + workspace.name + "'.",
        {{"required", "author"}, {"held", FlagsName(*membership)}});
  }
  // super_admin issues anywhere as a ws_admin would.
  Scope max = issuer.is_super_admin ? Scope::kAuthor : MaxScopeFor(*membership);
  if (issuer_scope_cap && *issuer_scope_cap < max) max = *issuer_scope_cap;
  return max;
}

IssuedApiKey ApiKeyService::IssueKey(const User& issuer, const Workspace& workspace,
                                     std::optional<Scope> issuer_scope_cap,
                                     const CreateApiKeyRequest& request,
                                     const std::string& minted_by, bool require_author) {
  const std::size_t name_length = Utf8Length(request.name);
  if (name_length < 1 || name_length > kMaxKeyNameChars) {
    throw DomainError(errc::kRequestInvalid, "the key name must be 1 to 100 characters",
                      {{"field", "name"}});
  }
  if (IsExpired(request.expires_at_ms, records_.Now())) {
    throw DomainError(errc::kRequestInvalid, "the key expiry must be in the future",
                      {{"field", "expires_at"}});
  }
  const Scope max = IssuableScope(issuer, workspace, issuer_scope_cap, require_author);
  if (request.scope > max) {
    throw DomainError(errc::kKeyScopeExceedsIssuer,
                      "a key's scope cannot exceed what its issuer may do in the workspace",
                      {{"requested", ToString(request.scope)}, {"max", ToString(max)}});
  }
  GeneratedApiKey generated = GenerateApiKey();
  ApiKeyRecord record{generated.id,
                      issuer.id,
                      workspace.id,
                      request.name,
                      request.kind,
                      request.scope,
                      records_.hasher().HashSecret(generated.plaintext),
                      false,
                      records_.Now(),
                      request.expires_at_ms,
                      std::nullopt,
                      Authenticator::ApiKeyCheck(generated.plaintext),
                      minted_by};
  records_.credentials().InsertApiKey(record);
  Json details = {{"name", record.name},
                  {"scope", ToString(record.scope)},
                  {"kind", ToString(record.kind)},
                  {"minted_by", minted_by}};
  if (record.expires_at_ms) details["expires_at"] = FormatIso8601Ms(*record.expires_at_ms);
  records_.Audit("auth.api_key.created", issuer.id, record.id, workspace.id, "",
                 std::move(details));
  return IssuedApiKey{WithoutSecret(std::move(record)), workspace.name,
                      std::move(generated.plaintext)};
}

std::vector<ApiKeyRecord> ApiKeyService::ListApiKeys(const Principal& principal) {
  return WithoutSecrets(records_.credentials().ListApiKeysOfUser(principal.user_id));
}

void ApiKeyService::RevokeApiKey(const Principal& principal, const std::string& key_id) {
  auto key = records_.credentials().FindApiKey(key_id);
  if (!key) throw DomainError(errc::kApiKeyNotFound, "no such API key", {{"id", key_id}});
  RequireRevocableBy(principal, *key);
  RevokeAndAudit(*key, principal.user_id);
}

void ApiKeyService::RequireRevocableBy(const Principal& principal, const ApiKeyRecord& key) {
  auto absent = [&] {
    return DomainError(errc::kApiKeyNotFound, "no such API key", {{"id", key.id}});
  };
  const bool own = key.user_id == principal.user_id;
  if (!principal.via_session) {
    // A key acts inside its pinned workspace, on keys no wider than itself (§7.6): a leaked
    // read key must not be able to take its owner's author key away.
    if (!own || key.workspace_id != principal.workspace_id) throw absent();
    const bool wider = key.kind == KeyKind::kServer ||
                       (key.kind == KeyKind::kEndpoint && principal.scope < Scope::kAuthor) ||
                       (key.kind == KeyKind::kUser && key.scope > principal.scope);
    if (!wider) return;
    const std::string needed(key.kind == KeyKind::kServer     ? "admin"
                             : key.kind == KeyKind::kEndpoint ? "author"
                                                              : ToString(key.scope));
    throw DomainError(errc::kScopeInsufficient,
                      "This API key's scope is '" + std::string(ToString(principal.scope)) +
                          "'; revoking a " + std::string(ToString(key.kind)) + " key of scope '" +
                          needed + "' needs at least that.",
                      {{"required", needed},
                       {"granted", ToString(principal.scope)},
                       {"reason", "target_key_wider"}});
  }
  if (own || principal.super_admin) return;
  // A workspace admin revokes any key pinned to their workspace (§11A); anyone else's key is
  // reported as absent: its existence is not the caller's business.
  auto membership = records_.CurrentFlags(key.workspace_id, principal.user_id);
  if (!membership || !Satisfies(*membership, RoleFloor::kWsAdmin)) throw absent();
}

std::vector<std::string> ApiKeyService::RevokeAllKeysOf(const std::string& email,
                                                        const std::string& actor_user_id) {
  User user = records_.RequireUser(email);
  std::vector<std::string> revoked;
  for (const ApiKeyRecord& key : records_.credentials().ListApiKeysOfUser(user.id)) {
    if (key.is_revoked) continue;
    RevokeAndAudit(key, actor_user_id);
    revoked.push_back(key.id);
  }
  records_.Audit("auth.api_key.revoked_all", actor_user_id, "", "", "",
                 {{"owner", user.id},
                  {"email", user.email},
                  {"count", revoked.size()},
                  {"by", actor_user_id.empty() ? "operator" : "user"}});
  return revoked;
}

void ApiKeyService::RevokeAndAudit(const ApiKeyRecord& key, const std::string& actor_user_id) {
  records_.credentials().RevokeApiKey(key.id);
  authenticator_.ForgetKey(key.id);
  records_.Audit("auth.api_key.revoked", actor_user_id, key.id, key.workspace_id, "",
                 {{"owner", key.user_id}, {"by", actor_user_id.empty() ? "operator" : "user"}});
}

IssuedApiKey ApiKeyService::CreateApiKeyFor(const std::string& email,
                                            const std::string& workspace_name,
                                            const std::string& name, Scope scope, KeyKind kind,
                                            std::optional<int64_t> expires_at_ms) {
  User user = records_.RequireUser(email);
  if (!user.is_active) throw DomainError(errc::kLoginUserInactive, "this account is deactivated");
  Workspace workspace = records_.RequireWorkspace(workspace_name);
  return IssueOperatorKey(user, workspace,
                          CreateApiKeyRequest{name, scope, kind, workspace_name, expires_at_ms});
}

IssuedApiKey ApiKeyService::IssueOperatorKey(const User& owner, const Workspace& workspace,
                                             const CreateApiKeyRequest& request) {
  return IssueKey(owner, workspace, std::nullopt, request, "operator", false);
}

void ApiKeyService::RevokeApiKeyById(const std::string& key_id) {
  auto key = records_.credentials().FindApiKey(key_id);
  if (!key) throw DomainError(errc::kApiKeyNotFound, "no such API key", {{"id", key_id}});
  RevokeAndAudit(*key, "");
}

std::vector<ApiKeyRecord> ApiKeyService::ListAllKeys() {
  return WithoutSecrets(records_.credentials().ListApiKeys());
}

}  // namespace dp
