// Data-driven resources/read cases (cases/*.json) over the real stack: each names a caller
// and a URI, and the subset of the response, the parsed contents, the exact text, substrings
// that must never appear, and the mcp.resource.read audit row it must leave.
#include <filesystem>
#include <fstream>

#include "resource_stack.hpp"

namespace dp::test {
namespace {

// Every member of `expected` is in `actual`; an expected array element matches any element.
bool Contains(const Json& actual, const Json& expected) {
  if (expected.is_object()) {
    if (!actual.is_object()) return false;
    for (const auto& [key, value] : expected.items()) {
      if (!actual.contains(key) || !Contains(actual[key], value)) return false;
    }
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array()) return false;
    for (const Json& want : expected) {
      bool found = false;
      for (const Json& have : actual) found = found || Contains(have, want);
      if (!found) return false;
    }
    return true;
  }
  return actual == expected;
}

struct ReadCase {
  std::string name;
  Json spec;
};

void PrintTo(const ReadCase& c, std::ostream* os) { *os << c.name; }

std::vector<ReadCase> LoadCases() {
  std::vector<ReadCase> cases;
  std::string dir = std::string(DP_SOURCE_DIR) + "/tests/integration/mcp_resources/cases";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    for (auto& spec : Json::parse(in)) cases.push_back({spec["name"].get<std::string>(), spec});
  }
  return cases;
}

class ResourceReadCases : public ResourceStack, public ::testing::WithParamInterface<ReadCase> {};

TEST_P(ResourceReadCases, Matches) {
  const Json& spec = GetParam().spec;
  const std::string user = spec["user"].get<std::string>();
  const std::string uri = spec["uri"].get<std::string>();
  size_t audit_before = ResourceAudit().size();
  Json response = Read(user, uri);
  const std::string dumped = response.dump();
  if (spec.contains("expect")) {
    EXPECT_TRUE(Contains(response, spec["expect"])) << response.dump(2);
  }
  if (spec.contains("json") || spec.contains("text")) {
    ASSERT_TRUE(response.contains("result")) << dumped;
    ASSERT_EQ(response["result"]["contents"].size(), 1u) << dumped;
    const std::string text = response["result"]["contents"][0]["text"].get<std::string>();
    if (spec.contains("text")) {
      EXPECT_EQ(text, spec["text"].get<std::string>());
    }
    if (spec.contains("json")) {
      EXPECT_TRUE(Contains(Json::parse(text), spec["json"])) << Json::parse(text).dump(2);
    }
  }
  for (const auto& forbidden : spec.value("excludes", Json::array())) {
    EXPECT_EQ(dumped.find(forbidden.get<std::string>()), std::string::npos)
        << forbidden << " leaked: " << dumped;
  }
  // Exactly one row per read, success or failure (§14), naming the uri — never the content.
  auto rows = ResourceAudit();
  ASSERT_EQ(rows.size(), audit_before + 1);
  const AuditEvent& row = rows.front();
  EXPECT_EQ(row.correlation_id, last_correlation_);
  EXPECT_EQ(row.key_id, P(user).key_id);
  EXPECT_EQ(row.user_id, P(user).user_id);
  EXPECT_EQ(row.details["uri"], uri);
  EXPECT_TRUE(row.details["elapsed_ms"].is_number_integer()) << row.details.dump();
  EXPECT_EQ(row.details.value("outcome", ""), response.contains("error") ? "error" : "success");
  EXPECT_EQ(row.details.contains("code"), response.contains("error")) << row.details.dump();
  if (spec.contains("audit")) {
    EXPECT_TRUE(Contains(row.details, spec["audit"])) << row.details.dump();
  }
  EXPECT_EQ(row.details.dump().find("SELECT"), std::string::npos) << row.details.dump();
}

INSTANTIATE_TEST_SUITE_P(Reads, ResourceReadCases, ::testing::ValuesIn(LoadCases()),
                         [](const auto& info) {
                           std::string name;
                           for (char c : info.param.name)
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace dp::test
