#include "datapipelines/store/redact_url.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/migration.hpp"

namespace dp {
namespace {

TEST(RedactUrl, MasksUserinfoPassword) {
  EXPECT_EQ(RedactUrl("postgresql://dp:s3cret@127.0.0.1:5432/meta"),
            "postgresql://dp:***@127.0.0.1:5432/meta");
  EXPECT_EQ(RedactUrl("postgres://u:p%40ss@db/x?sslmode=require"),
            "postgres://u:***@db/x?sslmode=require");
}

TEST(RedactUrl, MasksPasswordContainingAtAndColon) {
  std::string redacted = RedactUrl("postgresql://dp:a@b:c@host/db");
  EXPECT_EQ(redacted, "postgresql://dp:***@host/db");
}

TEST(RedactUrl, MasksPasswordQueryParameterAndKeywordForm) {
  EXPECT_EQ(RedactUrl("postgresql://host/db?user=dp&password=s3cret&sslmode=disable"),
            "postgresql://host/db?user=dp&password=***&sslmode=disable");
  EXPECT_EQ(RedactUrl("host=db user=dp password=s3cret dbname=meta"),
            "host=db user=dp password=*** dbname=meta");
}

TEST(RedactUrl, LeavesSecretFreeTextAlone) {
  EXPECT_EQ(RedactUrl("postgresql://dp@host/db"), "postgresql://dp@host/db");
  EXPECT_EQ(RedactUrl("postgresql://host:5432/db"), "postgresql://host:5432/db");
  EXPECT_EQ(RedactUrl("sqlite:/var/lib/dp/meta.db"), "sqlite:/var/lib/dp/meta.db");
  EXPECT_EQ(RedactUrl(":memory:"), ":memory:");
}

TEST(ScrubSecrets, RemovesThePasswordWhereverItIsEchoed) {
  std::string url = "postgresql://dp:hunter2@host/db?password=other9";
  std::string scrubbed =
      ScrubSecrets("failed: hunter2 / other9 / postgresql://dp:hunter2@host/db", url);
  EXPECT_EQ(scrubbed.find("hunter2"), std::string::npos) << scrubbed;
  EXPECT_EQ(scrubbed.find("other9"), std::string::npos) << scrubbed;
  EXPECT_NE(scrubbed.find("failed: ***"), std::string::npos) << scrubbed;
}

TEST(OpenMetadataStore, UnreachablePostgresErrorNeverCarriesThePassword) {
  // Port 1 on loopback refuses at once: no server needed.
  const std::string url = "postgresql://dp:Very$ecretPw@127.0.0.1:1/meta?connect_timeout=2";
  try {
    OpenMetadataStore(url);
    FAIL() << "expected the connection to fail";
  } catch (const std::runtime_error& error) {
    std::string message = error.what();
    EXPECT_EQ(message.find("Very$ecretPw"), std::string::npos) << message;
    EXPECT_NE(message.find("postgresql://dp:***@127.0.0.1:1/meta"), std::string::npos) << message;
  }
}

TEST(OpenMetadataStore, UnsupportedSchemeIsRefusedWithRedactedUrl) {
  try {
    OpenMetadataStore("mysql://root:topsecret@db/meta");
    FAIL() << "expected an unsupported-scheme error";
  } catch (const std::runtime_error& error) {
    std::string message = error.what();
    EXPECT_EQ(message.find("topsecret"), std::string::npos) << message;
    EXPECT_NE(message.find("mysql://root:***@db/meta"), std::string::npos) << message;
  }
}

TEST(OpenMetadataStore, MemoryAndSqliteUrlsOpenSqlite) {
  for (const std::string url : {":memory:", "sqlite::memory:"}) {
    auto store = OpenMetadataStore(url);
    EXPECT_EQ(store->BackendName(), "sqlite") << url;
    EXPECT_EQ(store->SchemaVersion(), 0) << url;
    EXPECT_EQ(store->Migrate(), SqliteMigrations().back().version) << url;
  }
}

}  // namespace
}  // namespace dp
