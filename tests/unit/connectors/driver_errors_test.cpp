// Driver messages lose credentials by structure (URL userinfo, password= pairs), never by a
// substring search that a one-letter password would turn into "***ort 1 failed".
#include "connectors/driver_errors.hpp"

#include <gtest/gtest.h>

namespace dp {
namespace {

struct ScrubCase {
  const char* message;
  const char* secret;
  const char* expected;
};

TEST(DriverErrorsTest, ScrubRemovesCredentialsByStructure) {
  const ScrubCase cases[] = {
      {"connection to server at \"h\", port 1 failed", "p",
       "connection to server at \"h\", port 1 failed"},
      {"could not connect: postgresql://app:p@db:5432/x refused", "p",
       "could not connect: postgresql://***@db:5432/x refused"},
      {"bad conninfo: host=db password=hunter2 user=app", "hunter2",
       "bad conninfo: host=db password=*** user=app"},
      {"bad conninfo: password='sec ret' dbname=x", "sec ret",
       "bad conninfo: password=*** dbname=x"},
      {"mysql://root:s3cr3tpass@h/ failed", "s3cr3tpass", "mysql://***@h/ failed"},
      {"echoed verbatim: correct-horse-battery", "correct-horse-battery", "echoed verbatim: ***"},
      {"no credentials here\n", "", "no credentials here"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(driver_errors::Scrub(c.message, c.secret), c.expected) << c.message;
  }
}

}  // namespace
}  // namespace dp
