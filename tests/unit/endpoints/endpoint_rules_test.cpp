// The pure rules of published endpoints, each from its case file under tests/endpoint_cases/:
// request binding (requests.json), the binding walk (authorization.json) and the read-only
// rule (readonly.json).
#include <gtest/gtest.h>

#include <fstream>

#include "datapipelines/endpoints/endpoint_authorization.hpp"
#include "datapipelines/endpoints/endpoint_request_binder.hpp"
#include "datapipelines/endpoints/readonly_check.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {
namespace {

Json Load(const std::string& name) {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/endpoint_cases/" + name);
  return Json::parse(in);
}

PipelineBody Body(const std::string& name, const Json& nodes) {
  ValidationProblems problems;
  return PipelineBodyParser::Parse(Json{{"schema_version", 1}, {"name", name}, {"nodes", nodes}},
                                   problems);
}

TEST(EndpointRequestBinder, BindsOrNamesEveryDefect) {
  const Json file = Load("requests.json");
  std::vector<ParameterDecl> declared;
  for (const Json& d : file["declared"]) {
    ParameterDecl p;
    p.name = d["name"];
    p.type = d["type"];
    p.required = d.value("required", false);
    if (d.contains("default")) p.default_value = d["default"];
    declared.push_back(p);
  }
  ASSERT_FALSE(file["cases"].empty());
  for (const Json& c : file["cases"]) {
    std::map<std::string, std::string> path = c["path"].get<std::map<std::string, std::string>>();
    std::string query = c["query"];
    if (auto at = query.find("@4097"); at != std::string::npos) {
      query.replace(at, 5, std::string(4097, 'a'));
    }
    BoundEndpointRequest bound = EndpointRequestBinder::Bind(declared, path, query);
    Json defects = Json::array();
    for (const auto& d : bound.defects) {
      defects.push_back(Json::array({d.parameter, d.code}));
      EXPECT_FALSE(d.message.empty()) << c["name"];
    }
    EXPECT_EQ(defects, c["defects"]) << c["name"];
    if (!c["parameters"].is_null()) {
      EXPECT_EQ(bound.parameters, c["parameters"]) << c["name"];
    }
    if (c.contains("format")) {
      ASSERT_TRUE(bound.format) << c["name"];
      EXPECT_EQ(*bound.format, c["format"].get<std::string>()) << c["name"];
    }
  }
}

TEST(EndpointRequestBinder, DeclaredFormatIsAnOrdinaryParameter) {
  ParameterDecl format;
  format.name = "format";
  format.type = "STRING";
  BoundEndpointRequest bound = EndpointRequestBinder::Bind({format}, {}, "format=xml");
  EXPECT_TRUE(bound.defects.empty());
  EXPECT_FALSE(bound.format);
  EXPECT_EQ(bound.parameters, (Json{{"format", "xml"}}));
}

EndpointVerdict ParseVerdict(const std::string& text) {
  if (text == "allowed") return EndpointVerdict::kAllowed;
  if (text == "key_not_bound") return EndpointVerdict::kKeyNotBound;
  if (text == "kind_refused") return EndpointVerdict::kKindRefused;
  if (text == "wrong_workspace") return EndpointVerdict::kWrongWorkspace;
  if (text == "scope_refused") return EndpointVerdict::kScopeRefused;
  ADD_FAILURE() << "unknown verdict " << text;
  return EndpointVerdict::kAllowed;
}

TEST(EndpointAuthorization, TheFirstBoundAncestorDecides) {
  const Json file = Load("authorization.json");
  ASSERT_FALSE(file["cases"].empty());
  for (const Json& c : file["cases"]) {
    auto pattern = PathPattern::Parse(c["pattern"]);
    ASSERT_TRUE(pattern) << c["name"];
    std::vector<NodeBinding> bindings;
    for (const Json& b : c["bindings"]) bindings.push_back({b[0], b[1]});
    const Json& who = c["caller"];
    EndpointCaller caller{who["key"], *ParseKeyKind(who["kind"].get<std::string>()),
                          who["workspace"], who["execute"]};
    std::string node;
    EXPECT_EQ(EndpointAuthorization::Decide(*pattern, "w1", caller, bindings, &node),
              ParseVerdict(c["verdict"]))
        << c["name"];
    EXPECT_EQ(node, c.value("node", "")) << c["name"];
  }
}

TEST(EndpointAuthorization, AncestorsRunFromTheEndpointToTheRoot) {
  auto pattern = PathPattern::Parse("/lending/{borough}/home");
  ASSERT_TRUE(pattern);
  EXPECT_EQ(
      EndpointAuthorization::Ancestors(*pattern),
      (std::vector<std::string>{"/lending/{borough}/home", "/lending/{borough}", "/lending", "/"}));
  EXPECT_TRUE(EndpointAuthorization::IsNode("/"));
  EXPECT_TRUE(EndpointAuthorization::IsNode("/lending"));
  EXPECT_FALSE(EndpointAuthorization::IsNode("/lending/"));
  EXPECT_FALSE(EndpointAuthorization::IsNode("lending"));
}

TEST(ReadonlyCheck, NamesTheFirstNodeWithASideEffect) {
  const Json file = Load("readonly.json");
  auto children = [&file](const ChildPipelineRef& ref) -> std::optional<PipelineBody> {
    const std::string key = ref.name + "@" + std::to_string(ref.version);
    if (!file["children"].contains(key)) return std::nullopt;
    return Body(ref.name, file["children"][key]["nodes"]);
  };
  ASSERT_FALSE(file["cases"].empty());
  for (const Json& c : file["cases"]) {
    auto violation = ReadonlyCheck::FirstViolation(Body("parent", c["nodes"]), children);
    if (c["violation"].is_null()) {
      EXPECT_FALSE(violation) << c["name"] << ": " << (violation ? violation->reason : "");
    } else {
      ASSERT_TRUE(violation) << c["name"];
      EXPECT_EQ(violation->node_id, c["violation"].get<std::string>()) << c["name"];
      EXPECT_FALSE(violation->reason.empty());
    }
  }
}

}  // namespace
}  // namespace dp
