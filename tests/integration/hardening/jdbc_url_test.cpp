// Issue 9, auth: a jdbc_url is returned to read keys, so no form of any driver's grammar may
// smuggle a credential into it (tests/hardening_cases/jdbc_urls.json: userinfo, query,
// ;-parameters, #fragments, MySQL address=(…) and (host=…,…) forms, encoded keys).
#include <gtest/gtest.h>

#include <fstream>

#include "integration/datasources/datasource_harness.hpp"

namespace dp {
namespace {

struct UrlCase {
  std::string name;
  Json spec;
};

std::vector<UrlCase> LoadJdbcUrlCases() {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/hardening_cases/jdbc_urls.json");
  std::vector<UrlCase> cases;
  int n = 0;
  for (auto& spec : Json::parse(in)) {
    cases.push_back({std::to_string(n++) + "_" + spec["dialect"].get<std::string>(), spec});
  }
  return cases;
}

class JdbcUrlCases : public ::testing::TestWithParam<UrlCase> {
 protected:
  ServiceHarness h_;
};

TEST_P(JdbcUrlCases, CredentialsNeverStored) {
  const Json& spec = GetParam().spec;
  const std::string url = spec["url"].get<std::string>();
  Json body{{"name", "url-case"},
            {"display_name", "url case"},
            {"dialect", spec["dialect"]},
            {"jdbc_url", url},
            {"username", "u"},
            {"password", "stored-secret"},
            {"workspace", "alpha"}};
  if (spec["refused"].get<bool>()) {
    DomainError error = Refusal([&] { h_.service().Create(AdminSession("ws-a"), body); });
    EXPECT_EQ(error.code().code, std::string("datasource.validation.jdbc_url_malformed")) << url;
    EXPECT_EQ(std::string(error.what()).find("=p"), std::string::npos) << error.what();
    EXPECT_FALSE(h_.store().Datasources().FindDatasource("url-case").has_value())
        << "bad input changes nothing";
  } else {
    Json view = h_.service().Create(AdminSession("ws-a"), body);
    EXPECT_EQ(view["jdbc_url"].get<std::string>(), url);
  }
}

INSTANTIATE_TEST_SUITE_P(Forms, JdbcUrlCases, ::testing::ValuesIn(LoadJdbcUrlCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace dp
