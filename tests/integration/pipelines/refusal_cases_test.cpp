// Every environment-dependent save refusal (pipeline-contract §12.5, §12.6, §12.9, §12.11,
// §12.12) over MCP and over REST, from one case file (cases/refusals.json), each case on a freshly
// seeded stack. A case is {"name", "as"?, "patch"?, "surfaces"?, "code", "path"?, "details"?,
// "detail_keys"?}: "patch" is merged over BaseBody(); "code" "<none>" means the save succeeds.
#include <fstream>

#include "pipeline_seed.hpp"
#include "support/json_cases.hpp"

namespace dp::test {
namespace {

struct Case {
  Json spec;
  std::string surface;
  MetadataBackend backend;
};

std::vector<Case> LoadRefusalCases() {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/integration/pipelines/cases/refusals.json");
  std::vector<Case> cases;
  for (const Json& c : Json::parse(in)) {
    for (const Json& surface : c.value("surfaces", Json::array({"mcp", "rest"}))) {
      for (MetadataBackend backend : {MetadataBackend::kSqlite, MetadataBackend::kPostgres}) {
        cases.push_back({c, surface.get<std::string>(), backend});
      }
    }
  }
  return cases;
}

class PipelineRefusalCases : public SeededPipelineStack,
                             public ::testing::WithParamInterface<Case> {
 protected:
  MetadataBackend Backend() const override { return GetParam().backend; }
};

TEST_P(PipelineRefusalCases, RefusedWithItsCode) {
  const Json& spec = GetParam().spec;
  const std::string user = spec.value("as", "alice");
  Json body = BaseBody();
  if (spec.contains("patch")) body.merge_patch(spec["patch"]);
  std::string code;
  Json details;
  if (GetParam().surface == "mcp") {
    ToolOutcome out = Tool(user, "pipelines_create", body);
    code = out.Code();
    details = out.Details();
  } else {
    body.erase("confirm_new_root");
    body.erase("door_acknowledged");
    RestOutcome out = Rest(user, "POST", "/api/v1/pipelines", body);
    code = out.Code();
    details = out.Details();
    if (code == "<none>") {
      EXPECT_EQ(out.status, 201) << out.body.dump();
    }
  }
  ASSERT_EQ(code, spec["code"].get<std::string>()) << details.dump();
  if (spec.contains("path")) {
    EXPECT_EQ(details.value("path", ""), spec["path"]) << details.dump();
  }
  if (spec.contains("details")) {
    EXPECT_TRUE(ContainsMembers(details, spec["details"])) << details.dump();
  }
  for (const Json& key : spec.value("detail_keys", Json::array())) {
    EXPECT_TRUE(details.contains(key.get<std::string>())) << key << " in " << details.dump();
  }
  if (code != "<none>") {
    // Nothing invalid is stored: the refused name is not there afterwards.
    PipelineListQuery query;
    query.q = body.value("name", "");
    if (code != "pipeline.validation.duplicate_name" && user != "victor") {
      EXPECT_EQ(pipelines_->List(P("alice"), query).total, 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, PipelineRefusalCases, ::testing::ValuesIn(LoadRefusalCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.spec["name"].get<std::string>() + "_" +
                                  info.param.surface + "_" + BackendName(info.param.backend);
                         });

}  // namespace
}  // namespace dp::test
