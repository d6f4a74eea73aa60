// Key issuance and revocation over REST (auth.md §5A.7, §7.4, §7.6, §7.7, §11A.4), the
// instance verbs (revoke a user's keys, read the audit log), the minting credential on every
// key, and the REST audit choke point: one `rest.write` row per mutating call.
//
// Case shape (cases/key_rules.json): {"name", "as": credential, "method", "path", "body"?,
// "status", "code", "details"?}. A credential is "<user>_session" (signed in, CSRF token sent)
// or one of the keys seeded below; "$key:<name>" in a path is that key's id. "code" is an
// error code or "<none>" for success. Every case runs on a freshly seeded stack.
#include <fstream>

#include "datapipelines/domain/domain_error.hpp"

#include "support/json_cases.hpp"
#include "support/surface_stack.hpp"

namespace dp::test {
namespace {

constexpr const char* kPassword = "correct horse battery";

std::vector<Json> LoadCases() {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/integration/auth/cases/key_rules.json");
  return Json::parse(in).get<std::vector<Json>>();
}

class KeyRulesStack : public SurfaceStack {
 protected:
  void SetUp() override {
    OpenSurfaces();
    Member("alice", "acme", MemberFlags{true, true, false});
    Member("victor", "acme", MemberFlags{});
    Member("oscar", "acme", MemberFlags{});
    Member("wanda", "acme", MemberFlags{true, true, true});
    Member("olga", "other", MemberFlags{true, true, false});
    auth_->accounts().CreateUser("root@example.com", "root", kPassword, true);
    auth_->accounts().SetMembership("acme", "root@example.com", MemberFlags{true, true, true});
    SeedKey("alice_read", "alice", Scope::kRead);
    SeedKey("alice_read2", "alice", Scope::kRead);
    SeedKey("alice_exec", "alice", Scope::kExecute);
    SeedKey("alice_author", "alice", Scope::kAuthor);
    SeedKey("alice_endpoint", "alice", Scope::kRead, KeyKind::kEndpoint);
    SeedKey("victor_read", "victor", Scope::kRead);
    SeedKey("wanda_author", "wanda", Scope::kAuthor);
    SeedKey("olga_author", "olga", Scope::kAuthor, KeyKind::kUser, "other");
    SeedKey("root_author", "root", Scope::kAuthor);
    SeedKey("root_server", "root", Scope::kRead, KeyKind::kServer);
  }

  void Member(const std::string& name, const std::string& workspace, MemberFlags role) {
    std::string email = name + "@example.com";
    auth_->accounts().CreateUser(email, name, kPassword, false);
    if (!store_->Workspaces().FindWorkspaceByName(workspace))
      auth_->accounts().CreateWorkspace(workspace, "", "");
    auth_->accounts().SetMembership(workspace, email, role);
  }

  void SeedKey(const std::string& label, const std::string& user, Scope scope,
               KeyKind kind = KeyKind::kUser, const std::string& workspace = "acme") {
    IssuedApiKey issued =
        auth_->keys().CreateApiKeyFor(user + "@example.com", workspace, label, scope, kind, {});
    tokens_[label] = issued.plaintext;
    key_ids_[label] = issued.record.id;
  }

  // Replaces "$key:<label>" segments with the key's id.
  std::string Expand(std::string path) {
    for (const auto& [label, id] : key_ids_) {
      const std::string marker = "$key:" + label;
      if (auto at = path.find(marker);
          at != std::string::npos &&
          (at + marker.size() == path.size() || path[at + marker.size()] == '/')) {
        path.replace(at, marker.size(), id);
      }
    }
    return path;
  }

  // One request as `as`: a seeded key, or "<user>_session" (logged in, CSRF token attached).
  RestOutcome Call(const std::string& as, const std::string& method, const std::string& target,
                   const Json& body = nullptr) {
    HttpRequest request;
    request.method = method;
    request.target = Expand(target);
    size_t question = request.target.find('?');
    request.path = request.target.substr(0, question);
    if (question != std::string::npos) request.query = request.target.substr(question + 1);
    if (!body.is_null()) request.body = body.dump();
    const std::string suffix = "_session";
    if (as.size() > suffix.size() && as.substr(as.size() - suffix.size()) == suffix) {
      std::string token =
          auth_->authentication()
              .Login(as.substr(0, as.size() - suffix.size()) + "@example.com", kPassword, "")
              .token;
      request.headers.Add("Cookie", "dp_session=" + token);
      request.headers.Add("DP-CSRF-Token", Authenticator::CsrfTokenFor(token));
    } else {
      request.headers.Add("DP-API-Key", tokens_.at(as));
    }
    request.remote_ip = "127.0.0.1";
    last_correlation_ = "keys-" + std::to_string(++calls_);
    request.correlation_id = last_correlation_;
    HttpResponse response = rest_->HandleApi(request);
    RestOutcome out;
    out.status = response.status;
    out.body = response.body.empty() ? Json() : Json::parse(response.body);
    return out;
  }

  // The rest.write rows carrying this correlation id.
  std::vector<AuditEvent> WritesOf(const std::string& correlation) {
    std::vector<AuditEvent> rows;
    for (auto& row : store_->Audit().ListAudit("rest.write", 1000)) {
      if (row.correlation_id == correlation) rows.push_back(std::move(row));
    }
    return rows;
  }

  std::string P_alice() { return store_->Users().FindUserByEmail("alice@example.com")->id; }

  // The code authenticating with `token` answers, "<none>" when it authenticates.
  std::string CodeOfAuth(const std::string& token) {
    try {
      auth_->authentication().AuthenticateApiKey(token, "");
    } catch (const DomainError& e) {
      return std::string(e.code().code);
    }
    return "<none>";
  }

  std::map<std::string, std::string> tokens_;
  std::map<std::string, std::string> key_ids_;
  std::string last_correlation_;
};

class KeyRules : public KeyRulesStack, public ::testing::WithParamInterface<Json> {};

TEST_P(KeyRules, Answered) {
  const Json& c = GetParam();
  RestOutcome out = Call(c["as"].get<std::string>(), c["method"].get<std::string>(),
                         c["path"].get<std::string>(), c.value("body", Json()));
  EXPECT_EQ(out.status, c["status"].get<int>()) << out.body.dump();
  EXPECT_EQ(out.Code(), c["code"].get<std::string>()) << out.body.dump();
  if (c.contains("details")) {
    EXPECT_TRUE(ContainsMembers(out.Details(), c["details"])) << out.body.dump(2);
  }
  // The choke point: a mutating call is exactly one rest.write row, a read none.
  auto rows = WritesOf(last_correlation_);
  ASSERT_EQ(rows.size(), c["method"] == "GET" ? 0u : 1u);
  if (!rows.empty()) {
    EXPECT_EQ(rows[0].details["status"], out.status);
    EXPECT_EQ(rows[0].details["outcome"], out.status < 400 ? "success" : "error");
    if (out.status >= 400) {
      EXPECT_EQ(rows[0].details["code"], out.Code());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, KeyRules, ::testing::ValuesIn(LoadCases()), CaseName);

using KeyLineage = KeyRulesStack;

// Every key names the credential that minted it; a key minted by a key belongs to the user
// and outlives its parent (docs/rest.md).
TEST_F(KeyLineage, MintedByIsRecordedListedAndOutlivesTheParent) {
  RestOutcome first = Call("alice_session", "POST", "/api/v1/auth/api-keys",
                           Json{{"name", "parent"}, {"scope", "author"}});
  ASSERT_EQ(first.status, 201) << first.body.dump();
  EXPECT_EQ(first.body["data"]["minted_by"], "session");
  tokens_["parent"] = first.body["data"]["api_key"].get<std::string>();
  const std::string parent_id = first.body["data"]["id"].get<std::string>();

  RestOutcome child = Call("parent", "POST", "/api/v1/auth/api-keys",
                           Json{{"name", "child"}, {"scope", "execute"}});
  ASSERT_EQ(child.status, 201) << child.body.dump();
  EXPECT_EQ(child.body["data"]["minted_by"], parent_id);
  const std::string child_token = child.body["data"]["api_key"].get<std::string>();

  RestOutcome list = Call("alice_session", "GET", "/api/v1/auth/api-keys");
  ASSERT_EQ(list.status, 200);
  std::map<std::string, Json> by_name;
  for (const Json& key : list.body["data"]["items"]) by_name[key["name"]] = key["minted_by"];
  EXPECT_EQ(by_name["alice_read"], "operator");
  EXPECT_EQ(by_name["parent"], "session");
  EXPECT_EQ(by_name["child"], parent_id);

  ASSERT_EQ(Call("alice_session", "DELETE", "/api/v1/auth/api-keys/" + parent_id).status, 204);
  EXPECT_EQ(auth_->authentication().AuthenticateApiKey(child_token, "").user_id, P_alice());
}

// One operator verb revokes every key of a user, keys minted by keys included.
TEST_F(KeyLineage, RevokeAllTakesEveryKeyOfTheUser) {
  RestOutcome child = Call("alice_author", "POST", "/api/v1/auth/api-keys",
                           Json{{"name", "child"}, {"scope", "read"}});
  ASSERT_EQ(child.status, 201);
  const std::string child_token = child.body["data"]["api_key"].get<std::string>();
  RestOutcome out = Call("root_session", "POST", "/api/v1/admin/api-keys/revoke-all",
                         Json{{"user_email", "alice@example.com"}});
  ASSERT_EQ(out.status, 200) << out.body.dump();
  EXPECT_EQ(out.body["data"]["count"], 6);  // five seeded, one minted by a key
  for (const std::string& token : {tokens_["alice_read"], tokens_["alice_author"], child_token}) {
    EXPECT_EQ(CodeOfAuth(token), "auth.api_key.invalid");
  }
  EXPECT_EQ(CodeOfAuth(tokens_["victor_read"]), "<none>");  // nobody else's
  auto rows = store_->Audit().ListAudit("auth.api_key.revoked_all", 5);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].details["count"], 6);
  // A second run finds nothing live.
  EXPECT_EQ(Call("root_session", "POST", "/api/v1/admin/api-keys/revoke-all",
                 Json{{"user_email", "alice@example.com"}})
                .body["data"]["count"],
            0);
}

// The choke point across route families (mounted or not, refused or not): exactly one row
// each, naming actor, credential, operation, target, outcome and correlation id, and never a
// body value (the password below) nor the query string.
TEST_F(KeyLineage, EveryMutatingCallWritesExactlyOneRow) {
  auto answer_puts = [](const HttpRequest& request, const Principal&) {
    std::optional<HttpResponse> none;
    if (request.method == "PUT") {
      HttpResponse ok;
      ok.status = 200;
      ok.body = "{}";
      return std::optional<HttpResponse>(ok);
    }
    return none;
  };
  rest_->Mount("/api/v1/templates", RestResource{answer_puts, {}});
  struct Walk {
    std::string as, method, path;
    Json body;
    int status;
  };
  std::vector<Walk> walk = {
      {"alice_session", "POST", "/api/v1/auth/api-keys", {{"name", "w"}}, 201},
      {"alice_author", "DELETE", "/api/v1/auth/api-keys/$key:alice_exec", nullptr, 204},
      {"alice_author",
       "POST",
       "/api/v1/auth/password",
       {{"current_password", kPassword}, {"new_password", "s3cret-never-logged"}},
       403},
      {"alice_session",
       "POST",
       "/api/v1/auth/password",
       {{"current_password", "wrong password here"}, {"new_password", "s3cret-never-logged"}},
       401},
      {"root_session",
       "POST",
       "/api/v1/admin/api-keys/revoke-all",
       {{"user_email", "victor@example.com"}},
       200},
      {"alice_author",
       "PUT",
       "/api/v1/templates/acme/x.sql?token=s3cret-never-logged",
       {{"body", "SELECT 1"}},
       200},
      {"alice_author", "DELETE", "/api/v1/datasources/pg", nullptr, 404},
      {"alice_session", "POST", "/api/v1/auth/logout", nullptr, 204},
  };
  for (const Walk& step : walk) {
    RestOutcome out = Call(step.as, step.method, step.path, step.body);
    EXPECT_EQ(out.status, step.status) << step.method << " " << step.path << out.body.dump();
    auto rows = WritesOf(last_correlation_);
    ASSERT_EQ(rows.size(), 1u) << step.method << " " << step.path;
    const AuditEvent& row = rows[0];
    EXPECT_FALSE(row.user_id.empty());
    const bool session = step.as.find("_session") != std::string::npos;
    EXPECT_EQ(row.details["auth"], session ? "session" : "api_key");
    EXPECT_EQ(row.key_id.empty(), session);
    EXPECT_EQ(row.details["method"], step.method);
    EXPECT_EQ(row.details["status"], step.status);
    EXPECT_TRUE(row.details.contains("operation") && row.details.contains("target"));
    EXPECT_EQ(row.details["path"].get<std::string>().find('?'), std::string::npos);
  }
  EXPECT_EQ(WritesOf(last_correlation_)[0].details["operation"], "POST auth/logout");
  for (const AuditEvent& row : store_->Audit().ListAudit("", 1000)) {
    EXPECT_EQ(row.details.dump().find("s3cret-never-logged"), std::string::npos) << row.event;
  }
  // Reads leave none.
  Call("alice_author", "GET", "/api/v1/auth/api-keys");
  EXPECT_TRUE(WritesOf(last_correlation_).empty());
}

// GET /api/v1/admin/audit pages the log newest first.
TEST_F(KeyLineage, AdminAuditPages) {
  for (int i = 0; i < 3; ++i) {
    Call("alice_session", "POST", "/api/v1/auth/api-keys", Json{{"name", "k" + std::to_string(i)}});
  }
  RestOutcome first = Call("root_session", "GET", "/api/v1/admin/audit?event=rest.write&limit=2");
  ASSERT_EQ(first.status, 200) << first.body.dump();
  ASSERT_EQ(first.body["data"]["items"].size(), 2u);
  EXPECT_EQ(first.body["data"]["pagination"]["has_more"], true);
  EXPECT_GT(first.body["data"]["items"][0]["id"], first.body["data"]["items"][1]["id"]);
  RestOutcome second =
      Call("root_session", "GET", "/api/v1/admin/audit?event=rest.write&limit=2&offset=2");
  ASSERT_EQ(second.body["data"]["items"].size(), 1u);
  EXPECT_EQ(second.body["data"]["pagination"]["has_more"], false);
  EXPECT_EQ(second.body["data"]["items"][0]["event"], "rest.write");
  RestOutcome future =
      Call("root_session", "GET", "/api/v1/admin/audit?since=2999-01-01T00:00:00Z");
  EXPECT_TRUE(future.body["data"]["items"].empty());
}

}  // namespace
}  // namespace dp::test
