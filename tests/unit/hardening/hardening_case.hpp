#pragma once
// What the hardening case suites share: a case file of tests/hardening_cases (a JSON array of
// cases, each with its "name"), the test name a case gets, and the stack they run against —
// the MCP surface with the docs tools and one author, "ann".
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "datapipelines/mcp/mcp_http_endpoint.hpp"
#include "datapipelines/mcp/tools/docs_tools.hpp"
#include "support/surface_stack.hpp"

namespace dp::test {

struct HardeningCase {
  std::string name;
  Json spec;
};

inline std::vector<HardeningCase> LoadHardeningCases(const std::string& file) {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/hardening_cases/" + file);
  std::vector<HardeningCase> cases;
  for (auto& spec : Json::parse(in)) cases.push_back({spec["name"].get<std::string>(), spec});
  return cases;
}

// The case's name with everything but letters and digits as '_' (a gtest name).
inline std::string HardeningCaseName(const ::testing::TestParamInfo<HardeningCase>& info) {
  std::string name;
  for (char c : info.param.name) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

class HardeningStack : public SurfaceStack, public ::testing::WithParamInterface<HardeningCase> {
 protected:
  void SetUp() override {
    OpenSurfaces();
    BindDocsTools(catalog_, BuiltInSkillDocs());
    StartMcp();
    AddUser("ann", "ws", MemberFlags{true, true, false}, Scope::kAuthor);
    endpoint_ = std::make_unique<McpHttpEndpoint>(*mcp_, *authenticator_);
  }
  std::unique_ptr<McpHttpEndpoint> endpoint_;
};

}  // namespace dp::test
