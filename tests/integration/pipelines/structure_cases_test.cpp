// The body-alone validation folder (tests/pipeline_cases, run directly by the unit suite) again
// over both surfaces: every refusal case posted to REST and called over MCP must come back with
// the same code and path. Over MCP the tool's input schema may refuse a shape first (a JSON-RPC
// -32602 naming the field): that is the protocol answering, not the service, and only allowed
// where the schema itself forbids the input (schema_version and other undeclared top-level
// properties, additionalProperties: false) or arguments that are not an object at all.
#include <filesystem>
#include <fstream>

#include "pipeline_fixture.hpp"

namespace dp::test {
namespace {

struct StructureCase {
  std::string file;
  Json spec;
  std::string surface;
};

std::vector<StructureCase> LoadStructureCases() {
  std::vector<StructureCase> cases;
  const std::filesystem::path dir = std::filesystem::path(DP_SOURCE_DIR) / "tests/pipeline_cases";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path);
    for (const Json& c : Json::parse(in)) {
      const Json& expect = c["expect"];
      if (!expect.is_object() || !expect.contains("code")) continue;  // valid bodies: unit suite
      for (const char* surface : {"mcp", "rest"}) {
        cases.push_back({path.stem().string(), c, surface});
      }
    }
  }
  return cases;
}

class StructureCasesOverSurfaces : public PipelineStack,
                                   public ::testing::WithParamInterface<StructureCase> {};

TEST_P(StructureCasesOverSurfaces, SameCodeAndPath) {
  const Json& expect = GetParam().spec["expect"];
  Json body = GetParam().spec["body"];
  std::string code;
  Json details;
  if (GetParam().surface == "mcp") {
    ToolOutcome out = Tool("alice", "pipelines_create", body);
    code = out.Code();
    details = out.Details();
    if (code == "jsonrpc:-32602") {
      // Only a top-level property the tool's schema does not declare may be refused first.
      EXPECT_TRUE(!body.is_object() || body.contains("schema_version"))
          << out.payload.dump() << " for " << body.dump().substr(0, 300);
      return;
    }
  } else {
    RestOutcome out = Rest("alice", "POST", "/api/v1/pipelines", body);
    code = out.Code();
    details = out.Details();
    EXPECT_EQ(out.status, code.rfind("request.", 0) == 0 ? 400 : out.status);
  }
  ASSERT_EQ(code, expect["code"].get<std::string>()) << details.dump().substr(0, 600);
  if (expect.contains("path") && details.is_object()) {
    EXPECT_EQ(details.value("path", ""), expect["path"]);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, StructureCasesOverSurfaces,
                         ::testing::ValuesIn(LoadStructureCases()),
                         [](const ::testing::TestParamInfo<StructureCase>& info) {
                           std::string name = info.param.file + "_" +
                                              info.param.spec["name"].get<std::string>() + "_" +
                                              info.param.surface;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace dp::test
