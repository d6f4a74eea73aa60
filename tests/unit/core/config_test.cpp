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

}  // namespace
}  // namespace dp
