#include "datapipelines/config/config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace dp {
namespace {

std::string WriteYaml(const std::string& text) {
  auto path = std::filesystem::temp_directory_path() /
              ("dp_config_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << text;
  return path.string();
}

TEST(ConfigTest, DefaultsAreEmbedded) {
  Config config = LoadConfig("", {});
  EXPECT_EQ(config.server_address, "127.0.0.1");
  EXPECT_EQ(config.server_port, 8080);
  EXPECT_EQ(config.results_url, "memory");
  EXPECT_EQ(config.EffectiveMetadataUrl(), "sqlite:.data/metadata.db");
  EXPECT_EQ(config.max_body_bytes, 1 << 20);
  EXPECT_EQ(config.api_key_cache_ttl_seconds, 60);
}

TEST(ConfigTest, YamlThenEnvironmentOverride) {
  std::string path = WriteYaml(
      "server:\n  port: 9001\n"
      "datapipelines:\n  http:\n    allowed-hosts: [dp.example.com, other.example.com]\n"
      "  rate-limit:\n    requests-per-second: 7\n");
  Config config = LoadConfig(
      path, {{"SERVER_PORT", "9002"},
             {"DATAPIPELINES_HTTP_ALLOWED_ORIGINS", "https://a.example, https://b.example"}});
  EXPECT_EQ(config.server_port, 9002);
  EXPECT_EQ(config.requests_per_second, 7);
  EXPECT_EQ(config.allowed_hosts,
            (std::vector<std::string>{"dp.example.com", "other.example.com"}));
  EXPECT_EQ(config.allowed_origins,
            (std::vector<std::string>{"https://a.example", "https://b.example"}));
}

TEST(ConfigTest, UnknownKeyIsNamed) {
  std::string path = WriteYaml("datapipelines:\n  http:\n    max-body-byte: 5\n");
  try {
    LoadConfig(path, {});
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("datapipelines.http.max-body-byte"), std::string::npos);
  }
}

TEST(ConfigTest, InvalidValueIsNamed) {
  try {
    LoadConfig("", {{"DATAPIPELINES_RATE_LIMIT_REQUESTS_PER_SECOND", "lots"}});
    FAIL() << "expected ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("datapipelines.rate-limit.requests-per-second"),
              std::string::npos);
  }
  EXPECT_THROW(LoadConfig("", {{"SERVER_PORT", "70000"}}), ConfigError);
  EXPECT_THROW(LoadConfig("", {{"DATAPIPELINES_RESULTS_URL", "mongodb://x"}}), ConfigError);
  EXPECT_THROW(LoadConfig("", {{"DATAPIPELINES_OBSERVABILITY_LOGGING_FORMAT", "xml"}}),
               ConfigError);
}

// OpenID providers: a list from YAML, each field overridable from the environment (the
// secret), and refused at start when incomplete, misnamed, or without the base URL the
// redirect URIs are built from (auth.md §5.2).
TEST(ConfigTest, OidcProvidersLoadFromYamlAndEnvironmentAndAreValidated) {
  const std::string providers =
      "datapipelines:\n  auth:\n    base-url: https://dp.example.com\n"
      "    allowlist:\n      domains: example.com, example.org\n"
      "    oidc:\n      providers:\n"
      "        - name: corp\n          client-id: dp\n          client-secret: from-file\n"
      "          issuer-uri: https://idp.example.com\n          display-name: Corp SSO\n";
  Config config = LoadConfig(WriteYaml(providers),
                             {{"DATAPIPELINES_AUTH_OIDC_PROVIDERS_0_CLIENT_SECRET", "from-env"}});
  ASSERT_EQ(config.oidc_providers.size(), 1u);
  EXPECT_EQ(config.oidc_providers[0].name, "corp");
  EXPECT_EQ(config.oidc_providers[0].client_secret, "from-env");
  EXPECT_EQ(config.oidc_providers[0].display_name, "Corp SSO");
  EXPECT_EQ(config.auth_allowlist_domains,
            (std::vector<std::string>{"example.com", "example.org"}));

  auto refusal = [](const std::string& yaml) {
    try {
      LoadConfig(WriteYaml(yaml), {});
      return std::string();
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
  };
  std::string without_base = providers;
  without_base.replace(without_base.find("    base-url: https://dp.example.com\n"),
                       std::string("    base-url: https://dp.example.com\n").size(), "");
  EXPECT_NE(refusal(without_base).find("datapipelines.auth.base-url"), std::string::npos);
  std::string reserved = providers;
  reserved.replace(reserved.find("name: corp"), 10, "name: system");
  EXPECT_NE(refusal(reserved).find("system"), std::string::npos);
  std::string incomplete = providers;
  incomplete.replace(incomplete.find("client-id: dp"), 13, "scope: email");
  EXPECT_NE(refusal(incomplete).find("scope"), std::string::npos);
}

// Outbound mail (configuration §3.27, §7): on exactly when host and from are both set; each
// half-configured shape is refused at start naming the key, and never printing the password.
std::map<std::string, std::string> MailEnv() {
  return {{"DATAPIPELINES_MAIL_HOST", "smtp.example.com"},
          {"DATAPIPELINES_MAIL_FROM", "Data Team <noreply@example.com>"},
          {"DATAPIPELINES_AUTH_BASE_URL", "https://dp.example.com"}};
}

std::string ConfigRefusal(std::map<std::string, std::string> env) {
  try {
    LoadConfig("", env);
    return "";
  } catch (const ConfigError& error) {
    return error.what();
  }
}

TEST(ConfigMailTest, OffByDefaultOnWithHostAndFrom) {
  EXPECT_FALSE(LoadConfig("", {}).MailEnabled());
  const std::string path = WriteYaml(
      "datapipelines:\n  auth:\n    base-url: https://dp.example.com\n"
      "  mail:\n    host: smtp.example.com\n    port: 2525\n    username: dp\n"
      "    password: from-file\n    starttls: false\n    from: noreply@example.com\n"
      "    reply-to: Admin <admin@example.com>\n    ops-to: [ops@example.com, b@example.org]\n"
      "    message-stream: outbound\n");
  Config config = LoadConfig(path, {{"DATAPIPELINES_MAIL_PASSWORD", "from-env"},
                                    {"DATAPIPELINES_MAIL_OPS_TO", "a@example.com, c@example.com"}});
  EXPECT_TRUE(config.MailEnabled());
  EXPECT_EQ(config.mail_port, 2525);
  EXPECT_EQ(config.mail_username, "dp");
  EXPECT_EQ(config.mail_password, "from-env");
  EXPECT_FALSE(config.mail_starttls);
  EXPECT_EQ(config.mail_reply_to, "Admin <admin@example.com>");
  EXPECT_EQ(config.mail_ops_to, (std::vector<std::string>{"a@example.com", "c@example.com"}));
  EXPECT_EQ(config.mail_message_stream, "outbound");
  EXPECT_TRUE(LoadConfig("", MailEnv()).mail_starttls);  // required unless turned off
  EXPECT_EQ(LoadConfig("", MailEnv()).mail_port, 587);
}

TEST(ConfigMailTest, HostAndFromAreSetTogether) {
  auto env = MailEnv();
  env.erase("DATAPIPELINES_MAIL_FROM");
  EXPECT_NE(ConfigRefusal(env).find("'datapipelines.mail.from' is missing"), std::string::npos);
  env = MailEnv();
  env.erase("DATAPIPELINES_MAIL_HOST");
  EXPECT_NE(ConfigRefusal(env).find("'datapipelines.mail.host' is missing"), std::string::npos);
}

TEST(ConfigMailTest, OpsToWithoutHostIsRefused) {
  EXPECT_NE(ConfigRefusal({{"DATAPIPELINES_MAIL_OPS_TO", "ops@example.com"}})
                .find("'datapipelines.mail.ops-to' is set but 'datapipelines.mail.host' is not"),
            std::string::npos);
  auto env = MailEnv();
  env["DATAPIPELINES_MAIL_OPS_TO"] = "ops@example.com, not an address";
  EXPECT_NE(ConfigRefusal(env).find("datapipelines.mail.ops-to"), std::string::npos);
}

TEST(ConfigMailTest, MailOnRequiresTheBaseUrl) {
  auto env = MailEnv();
  env.erase("DATAPIPELINES_AUTH_BASE_URL");
  EXPECT_NE(ConfigRefusal(env).find("'datapipelines.auth.base-url' is required when mail is on"),
            std::string::npos);
  env["DATAPIPELINES_AUTH_BASE_URL"] = "https://dp.example.com/";
  EXPECT_NE(ConfigRefusal(env).find("datapipelines.auth.base-url"), std::string::npos);
}

TEST(ConfigMailTest, PortIsAPort) {
  for (const char* port : {"0", "65536", "smtp"}) {
    auto env = MailEnv();
    env["DATAPIPELINES_MAIL_PORT"] = port;
    EXPECT_NE(ConfigRefusal(env).find("'datapipelines.mail.port'"), std::string::npos) << port;
  }
  auto env = MailEnv();
  env["DATAPIPELINES_MAIL_PORT"] = "65535";
  EXPECT_EQ(ConfigRefusal(env), "");
}

TEST(ConfigMailTest, FromIsAnAddressOrDisplayNameWithAddress) {
  for (const char* from :
       {"noreply", "Data Team noreply@example.com", "a@example.com, b@example.com",
        "Data <noreply@example.com>\r\nBcc: x@example.com"}) {
    auto env = MailEnv();
    env["DATAPIPELINES_MAIL_FROM"] = from;
    EXPECT_NE(ConfigRefusal(env).find("invalid value for 'datapipelines.mail.from'"),
              std::string::npos)
        << from;
  }
  auto env = MailEnv();
  env["DATAPIPELINES_MAIL_REPLY_TO"] = "Admin admin@example.com";
  EXPECT_NE(ConfigRefusal(env).find("datapipelines.mail.reply-to"), std::string::npos);
}

TEST(ConfigMailTest, AUsernameNeedsAPasswordAndNoRefusalPrintsThePassword) {
  auto env = MailEnv();
  env["DATAPIPELINES_MAIL_USERNAME"] = "dp";
  EXPECT_NE(ConfigRefusal(env).find("'datapipelines.mail.password' is missing"), std::string::npos);
  // Whatever is refused, the password is not in the message.
  env["DATAPIPELINES_MAIL_PASSWORD"] = "s3cret-Pa55word";
  env["DATAPIPELINES_MAIL_FROM"] = "not an address";
  const std::string refusal = ConfigRefusal(env);
  EXPECT_FALSE(refusal.empty());
  EXPECT_EQ(refusal.find("s3cret-Pa55word"), std::string::npos);
}

TEST(ConfigTest, EnvNamesFollowTheDerivationRule) {
  EXPECT_EQ(EnvVarForKey("datapipelines.executor.node-query-timeout-seconds"),
            "DATAPIPELINES_EXECUTOR_NODE_QUERY_TIMEOUT_SECONDS");
  EXPECT_EQ(EnvVarForKey("server.port"), "SERVER_PORT");
}

// Every declared key is documented in the example file and in docs/configuration.md.
TEST(ConfigTest, EveryKeyIsDocumented) {
  auto read = [](const std::string& relative) {
    std::ifstream in(std::string(DP_SOURCE_DIR) + "/" + relative);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  std::string example = read("config/datapipelines.example.yaml");
  std::string docs = read("docs/configuration.md");
  ASSERT_FALSE(example.empty());
  ASSERT_FALSE(docs.empty());
  for (const ConfigKey& key : ConfigKeys()) {
    EXPECT_NE(docs.find("`" + std::string(key.path) + "`"), std::string::npos) << key.path;
    EXPECT_NE(docs.find(EnvVarForKey(key.path)), std::string::npos) << key.path;
    std::string leaf(key.path.substr(key.path.rfind('.') + 1));
    EXPECT_NE(example.find(leaf + ":"), std::string::npos) << key.path;
  }
  // The example file itself must load.
  EXPECT_NO_THROW(
      LoadConfig(std::string(DP_SOURCE_DIR) + "/config/datapipelines.example.yaml", {}));
}

// Password sign-in (auth.md §5A): on by default exactly when no OIDC provider is configured; the
// first admin's seed needs the admin's e-mail and password sign-in on, in one of its two forms;
// and some way to sign in must remain. No refusal prints the seeded password.
TEST(ConfigLocalAccountsTest, OnWithoutProvidersAndTheSeedIsChecked) {
  EXPECT_TRUE(LoadConfig("", {}).LocalAccountsEnabled());
  const std::map<std::string, std::string> sso = {
      {"DATAPIPELINES_AUTH_BASE_URL", "https://dp.example.com"},
      {"DATAPIPELINES_AUTH_OIDC_PROVIDERS_0_NAME", "corp"},
      {"DATAPIPELINES_AUTH_OIDC_PROVIDERS_0_CLIENT_ID", "dp"},
      {"DATAPIPELINES_AUTH_OIDC_PROVIDERS_0_CLIENT_SECRET", "s"},
      {"DATAPIPELINES_AUTH_OIDC_PROVIDERS_0_ISSUER_URI", "https://idp.example.com"}};
  EXPECT_FALSE(LoadConfig("", sso).LocalAccountsEnabled()) << "single sign-on: off unless said";
  auto with = [&](std::map<std::string, std::string> env, std::map<std::string, std::string> more) {
    env.insert(more.begin(), more.end());
    return env;
  };
  EXPECT_TRUE(LoadConfig("", with(sso, {{"DATAPIPELINES_AUTH_LOCAL_ENABLED", "true"}}))
                  .LocalAccountsEnabled());
  EXPECT_NE(
      ConfigRefusal({{"DATAPIPELINES_AUTH_LOCAL_ENABLED", "false"}}).find("nobody could sign in"),
      std::string::npos);
  const std::string secret = "seeded-secret-123";
  std::string both = ConfigRefusal({{"DATAPIPELINES_AUTH_BOOTSTRAP_ADMIN_EMAIL", "a@example.com"},
                                    {"DATAPIPELINES_AUTH_LOCAL_BOOTSTRAP_PASSWORD", secret},
                                    {"DATAPIPELINES_AUTH_LOCAL_BOOTSTRAP_PASSWORD_HASH",
                                     "$argon2id$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA"}});
  EXPECT_NE(both.find("are both set"), std::string::npos);
  EXPECT_EQ(both.find(secret), std::string::npos);
  std::string no_email = ConfigRefusal({{"DATAPIPELINES_AUTH_LOCAL_BOOTSTRAP_PASSWORD", secret}});
  EXPECT_NE(no_email.find("'datapipelines.auth.bootstrap-admin-email' is not"), std::string::npos);
  EXPECT_EQ(no_email.find(secret), std::string::npos);
  std::string local_off =
      ConfigRefusal(with(sso, {{"DATAPIPELINES_AUTH_BOOTSTRAP_ADMIN_EMAIL", "a@x.io"},
                               {"DATAPIPELINES_AUTH_LOCAL_BOOTSTRAP_PASSWORD", secret}}));
  EXPECT_NE(local_off.find("'datapipelines.auth.local.enabled' is not true"), std::string::npos);
  EXPECT_NE(ConfigRefusal({{"DATAPIPELINES_AUTH_BOOTSTRAP_ADMIN_EMAIL", "a@example.com"},
                           {"DATAPIPELINES_AUTH_LOCAL_BOOTSTRAP_PASSWORD_HASH", "plain text"}})
                .find("expected an Argon2id hash"),
            std::string::npos);
  Config seeded = LoadConfig("", {{"DATAPIPELINES_AUTH_BOOTSTRAP_ADMIN_EMAIL", "a@example.com"},
                                  {"DATAPIPELINES_AUTH_LOCAL_BOOTSTRAP_PASSWORD", secret}});
  EXPECT_EQ(seeded.auth_local_bootstrap_password, secret);
}

}  // namespace
}  // namespace dp
