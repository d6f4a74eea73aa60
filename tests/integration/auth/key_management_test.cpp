// Issuing, listing and revoking keys: the issuer rule (auth.md §7.4, workspaces design §5.2).
#include "datapipelines/service/identity/access_policy.hpp"
#include "integration/auth/auth_test_fixture.hpp"

namespace dp::test {
namespace {

using KeyManagement = AuthServiceTest;

CreateApiKeyRequest Request(std::string name, Scope scope, KeyKind kind = KeyKind::kUser,
                            std::string workspace = "") {
  CreateApiKeyRequest request;
  request.name = std::move(name);
  request.scope = scope;
  request.kind = kind;
  request.workspace_name = std::move(workspace);
  return request;
}

Principal SessionOf(AuthService& service, const std::string& email) {
  return service.authentication().Login(email, kPassword, "").principal;
}

TEST_F(KeyManagement, ScopeMayNotExceedTheIssuersRole) {
  // Viewers never mint keys (auth.md §11A.4): issuance needs author in the workspace.
  MakeMember("viewer@example.com", MemberFlags{});
  Principal viewer = SessionOf(*service_, "viewer@example.com");
  for (Scope scope : {Scope::kRead, Scope::kAuthor}) {
    try {
      service_->keys().CreateApiKey(viewer, Request("agent", scope));
      FAIL() << "expected auth.role_required";
    } catch (const DomainError& e) {
      EXPECT_EQ(e.code(), errc::kRoleRequired);
      EXPECT_EQ(e.details(), (Json{{"required", "author"}, {"held", "viewer"}}));
    }
  }
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  Principal read_key = service_->authentication().AuthenticateApiKey(
      KeyFor("alice@example.com", Scope::kRead).plaintext, "");
  try {
    service_->keys().CreateApiKey(read_key, Request("agent", Scope::kAuthor));
    FAIL() << "expected auth.api_key.scope_exceeds_issuer";
  } catch (const DomainError& e) {
    EXPECT_EQ(e.code(), errc::kKeyScopeExceedsIssuer);
    EXPECT_EQ(e.details(), (Json{{"requested", "author"}, {"max", "read"}}));
  }
  IssuedApiKey key = service_->keys().CreateApiKey(read_key, Request("agent", Scope::kRead));
  EXPECT_EQ(key.record.scope, Scope::kRead);
  EXPECT_EQ(key.record.workspace_id, read_key.workspace_id);
  EXPECT_EQ(key.record.minted_by, read_key.key_id);
  EXPECT_EQ(service_->authentication().AuthenticateApiKey(key.plaintext, "").user_id,
            read_key.user_id);

  // The operator CLI mints for any member, capped by the owner's role.
  MakeMember("op@example.com", MemberFlags{});
  EXPECT_EQ(CodeOf([&] {
              service_->keys().CreateApiKeyFor("op@example.com", "default", "k", Scope::kAuthor,
                                               KeyKind::kUser, std::nullopt);
            }),
            "auth.api_key.scope_exceeds_issuer");
  EXPECT_EQ(CodeOf([&] {
              service_->keys().CreateApiKeyFor("op@example.com", "default", "k", Scope::kExecute,
                                               KeyKind::kUser, std::nullopt);
            }),
            "<none>");
}

TEST_F(KeyManagement, AKeyCannotMintAWiderKey) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey read_key = KeyFor("alice@example.com", Scope::kRead);
  Principal as_key = service_->authentication().AuthenticateApiKey(read_key.plaintext, "");
  EXPECT_EQ(
      CodeOf([&] { service_->keys().CreateApiKey(as_key, Request("wider", Scope::kExecute)); }),
      "auth.api_key.scope_exceeds_issuer");
  EXPECT_EQ(CodeOf([&] { service_->keys().CreateApiKey(as_key, Request("same", Scope::kRead)); }),
            "<none>");
}

TEST_F(KeyManagement, IssuerMustBeAMemberUnlessSuperAdmin) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  service_->accounts().CreateWorkspace("other", "Other", "");
  Principal alice = SessionOf(*service_, "alice@example.com");
  EXPECT_EQ(CodeOf([&] {
              service_->keys().CreateApiKey(alice,
                                            Request("x", Scope::kRead, KeyKind::kUser, "other"));
            }),
            "workspace.membership_required");
  EXPECT_EQ(CodeOf([&] {
              service_->keys().CreateApiKey(alice,
                                            Request("x", Scope::kRead, KeyKind::kUser, "missing"));
            }),
            "workspace.not_found");

  service_->accounts().CreateUser("root@example.com", "", kPassword, true);
  Principal root = SessionOf(*service_, "root@example.com");
  IssuedApiKey key = service_->keys().CreateApiKey(
      root, Request("ops", Scope::kAuthor, KeyKind::kServer, "other"));
  Principal p = service_->authentication().AuthenticateApiKey(key.plaintext, "");
  EXPECT_EQ(p.workspace_name, "other");
  // A super admin is an implicit member holding every flag, and says so on the audit trail.
  EXPECT_EQ(p.membership, (MemberFlags{true, true, true}));
  EXPECT_TRUE(p.acting_as_super_admin);
  EXPECT_TRUE(p.super_admin);
  EXPECT_EQ(CodeOf([&] { EnforceAccess(p, Operation::kDatasourcesCreate); }), "<none>");
}

TEST_F(KeyManagement, NameAndExpiryAreValidated) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  Principal alice = SessionOf(*service_, "alice@example.com");
  auto create = [&](std::string name, std::optional<int64_t> expiry) {
    return CodeOf([&] {
      service_->keys().CreateApiKey(
          alice, CreateApiKeyRequest{name, Scope::kRead, KeyKind::kUser, "", expiry});
    });
  };
  EXPECT_EQ(create("", std::nullopt), "request.validation.invalid");
  EXPECT_EQ(create(std::string(101, 'n'), std::nullopt), "request.validation.invalid");
  EXPECT_EQ(create(std::string(100, 'n'), std::nullopt), "<none>");
  EXPECT_EQ(create("past", kStartMs - 1), "request.validation.invalid");
  EXPECT_EQ(create("now", kStartMs), "request.validation.invalid");
  EXPECT_EQ(create("future", kStartMs + 1), "<none>");
}

TEST_F(KeyManagement, ListShowsOwnKeysWithoutHashes) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  MakeMember("bob@example.com", MemberFlags{true, true, false});
  IssuedApiKey a1 = KeyFor("alice@example.com", Scope::kRead);
  IssuedApiKey a2 = KeyFor("alice@example.com", Scope::kAuthor);
  KeyFor("bob@example.com", Scope::kRead);
  Principal alice = SessionOf(*service_, "alice@example.com");
  auto keys = service_->keys().ListApiKeys(alice);
  ASSERT_EQ(keys.size(), 2u);
  for (const auto& key : keys) {
    EXPECT_TRUE(key.key_hash.empty());
    EXPECT_TRUE(key.id == a1.record.id || key.id == a2.record.id);
  }
  auto all = service_->keys().ListAllKeys();
  EXPECT_EQ(all.size(), 3u);
  for (const auto& key : all) EXPECT_TRUE(key.key_hash.empty());
}

TEST_F(KeyManagement, RevokingSomeoneElsesKeyLooksLikeNotFound) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  MakeMember("bob@example.com", MemberFlags{true, true, false});
  IssuedApiKey bobs = KeyFor("bob@example.com", Scope::kRead);
  Principal alice = SessionOf(*service_, "alice@example.com");
  EXPECT_EQ(CodeOf([&] { service_->keys().RevokeApiKey(alice, bobs.record.id); }),
            "auth.api_key.not_found");
  EXPECT_EQ(CodeOf([&] { service_->keys().RevokeApiKey(alice, "dpk_AAAAAAAAAAAA"); }),
            "auth.api_key.not_found");
  EXPECT_FALSE(store_->Credentials().FindApiKey(bobs.record.id)->is_revoked);

  service_->accounts().CreateUser("root@example.com", "", kPassword, true);
  Principal root = SessionOf(*service_, "root@example.com");
  service_->keys().RevokeApiKey(root, bobs.record.id);
  EXPECT_TRUE(store_->Credentials().FindApiKey(bobs.record.id)->is_revoked);
}

TEST_F(KeyManagement, OperatorRevocation) {
  MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kRead);
  service_->authentication().AuthenticateApiKey(key.plaintext, "");
  service_->keys().RevokeApiKeyById(key.record.id);
  EXPECT_EQ(CodeOf([&] { service_->authentication().AuthenticateApiKey(key.plaintext, ""); }),
            "auth.api_key.invalid");
  EXPECT_EQ(CodeOf([&] { service_->keys().RevokeApiKeyById("dpk_AAAAAAAAAAAA"); }),
            "auth.api_key.not_found");
}

TEST_F(KeyManagement, CreationIsAuditedWithoutTheSecret) {
  User alice = MakeMember("alice@example.com", MemberFlags{true, true, false});
  IssuedApiKey key = KeyFor("alice@example.com", Scope::kExecute);
  auto created = store_->Audit().ListAudit("auth.api_key.created", 5);
  ASSERT_EQ(created.size(), 1u);
  EXPECT_EQ(created[0].user_id, alice.id);
  EXPECT_EQ(created[0].key_id, key.record.id);
  EXPECT_EQ(created[0].details.value("scope", ""), "execute");
  EXPECT_EQ(created[0].details.dump().find(key.plaintext.substr(17)), std::string::npos);
}

}  // namespace
}  // namespace dp::test
