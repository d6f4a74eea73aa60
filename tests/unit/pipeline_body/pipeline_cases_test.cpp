// Data-driven save-time cases (tests/pipeline_cases/*.json): every case body is parsed and
// structure-validated, and must yield exactly the expected first problem (code, path, detail
// keys) — or no problem at all, with a canonical body that round-trips through the parser.
// The same folder runs over MCP and REST in the service suites.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/pipeline_structure_validator.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

struct PipelineCase {
  std::string file;
  Json spec;
};

std::vector<PipelineCase> LoadCases() {
  std::vector<PipelineCase> cases;
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(DP_SOURCE_DIR) / "tests/pipeline_cases")) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    Json content = Json::parse(in);
    if (!content.is_array()) content = Json::array({content});
    for (auto& spec : content) cases.push_back({file.filename().string(), std::move(spec)});
  }
  return cases;
}

ValidationProblems ParseAndValidate(const Json& request, PipelineBody* body_out = nullptr) {
  ValidationProblems problems;
  PipelineBody body = PipelineBodyParser::Parse(request, problems);
  PipelineStructureValidator::Validate(body, {}, problems);
  if (body_out != nullptr) *body_out = std::move(body);
  return problems;
}

std::string Describe(const ValidationProblems& problems) {
  Json list = Json::array();
  for (const auto& problem : problems.problems()) list.push_back(problem.ToJson());
  return list.dump(1).substr(0, 4000);
}

void ExpectValid(const PipelineCase& c) {
  PipelineBody body;
  ValidationProblems problems = ParseAndValidate(c.spec["body"], &body);
  ASSERT_TRUE(problems.empty()) << Describe(problems);
  const Json canonical = body.ToJson();
  ValidationProblems again;
  PipelineBody reparsed = PipelineBodyParser::Parse(canonical, again);
  PipelineStructureValidator::Validate(reparsed, {}, again);
  EXPECT_TRUE(again.empty()) << Describe(again);
  EXPECT_EQ(reparsed.ToJson(), canonical);
  if (c.spec.contains("canonical")) {
    EXPECT_EQ(canonical, c.spec["canonical"]);
  }
}

void ExpectRefused(const PipelineCase& c) {
  const Json& expect = c.spec["expect"];
  ValidationProblems problems = ParseAndValidate(c.spec["body"]);
  ASSERT_FALSE(problems.empty()) << "expected " << expect.dump();
  try {
    problems.Throw();
  } catch (const DomainError& error) {
    const Json details = error.details();
    if (expect.contains("code")) {
      EXPECT_EQ(std::string(error.code().code), expect["code"].get<std::string>())
          << Describe(problems);
    }
    if (expect.contains("path")) {
      EXPECT_EQ(details["path"], expect["path"]) << Describe(problems);
    }
    const Json detail_keys = expect.value("detail_keys", Json::array());
    const Json detail_values = expect.value("details", Json::object());
    const Json wanted_problems = expect.value("problems", Json::array());
    for (const auto& key : detail_keys) {
      EXPECT_TRUE(details.contains(key.get<std::string>()))
          << "missing detail " << key << " in " << details.dump();
    }
    for (const auto& [key, value] : detail_values.items()) {
      EXPECT_EQ(details.value(key, Json()), value) << "detail " << key;
    }
    for (const auto& wanted : wanted_problems) {
      const bool found = std::any_of(
          details["problems"].begin(), details["problems"].end(), [&](const Json& problem) {
            return problem["code"] == wanted["code"] && problem["path"] == wanted["path"];
          });
      EXPECT_TRUE(found) << "missing " << wanted.dump() << " in " << Describe(problems);
    }
    if (expect.contains("problem_count")) {
      EXPECT_EQ(details["problems"].size(), expect["problem_count"].get<size_t>())
          << Describe(problems);
    }
  }
}

// Optional helper expectations a case may carry beside its verdict.
void ExpectHelpers(const PipelineCase& c) {
  ValidationProblems ignored;
  PipelineBody body = PipelineBodyParser::Parse(c.spec["body"], ignored);
  if (c.spec.contains("door")) {
    auto door = RawDatePairDoor(body);
    if (c.spec["door"].is_null()) {
      EXPECT_FALSE(door.has_value()) << door->dump();
    } else {
      ASSERT_TRUE(door.has_value());
      EXPECT_EQ((*door)["parameters"], c.spec["door"]);
    }
  }
  if (c.spec.contains("derived")) {
    EXPECT_EQ(DerivedParameters(body), c.spec["derived"]);
  }
}

// gtest prints a failing parameter; name the case instead of dumping its bytes.
void PrintTo(const PipelineCase& c, std::ostream* out) {
  *out << c.file << ":" << c.spec.value("name", "?");
}

class PipelineCasesTest : public testing::TestWithParam<PipelineCase> {};

TEST_P(PipelineCasesTest, MatchesExpectation) {
  const PipelineCase& c = GetParam();
  SCOPED_TRACE(c.file + ": " + c.spec.value("name", "?"));
  if (c.spec["expect"] == "valid") {
    ExpectValid(c);
  } else {
    ExpectRefused(c);
  }
  ExpectHelpers(c);
}

std::string CaseName(const testing::TestParamInfo<PipelineCase>& info) {
  std::string name = info.param.spec.value("name", "case");
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Cases, PipelineCasesTest, testing::ValuesIn(LoadCases()), CaseName);

TEST(PipelineCasesFolder, CoversEveryStructureCode) {
  std::set<std::string> covered;
  for (const auto& c : LoadCases()) {
    const Json& expect = c.spec["expect"];
    if (!expect.is_object()) continue;
    if (expect.contains("code")) covered.insert(expect["code"].get<std::string>());
    const Json listed = expect.value("problems", Json::array());
    for (const auto& problem : listed) covered.insert(problem["code"].get<std::string>());
  }
  for (const char* code : {"pipeline.validation.schema_version_unsupported",
                           "pipeline.validation.name_invalid",
                           "pipeline.validation.duplicate_node_id",
                           "pipeline.validation.duplicate_output_table",
                           "pipeline.validation.invalid_identifier",
                           "pipeline.validation.reserved_identifier",
                           "pipeline.validation.forbidden_env_specific_value",
                           "pipeline.validation.dangling_dependency",
                           "pipeline.validation.cycle_detected",
                           "pipeline.validation.empty_pipeline",
                           "pipeline.validation.pipeline_too_large",
                           "pipeline.validation.multiple_caller_nodes",
                           "pipeline.validation.non_dql_caller_target",
                           "pipeline.validation.type_invalid",
                           "pipeline.validation.dml_has_output",
                           "pipeline.validation.ddl_has_output",
                           "pipeline.validation.output_target_invalid",
                           "pipeline.validation.output_table_missing",
                           "pipeline.validation.output_datasource_missing",
                           "pipeline.validation.output_mode_invalid",
                           "pipeline.validation.parameter_type_invalid",
                           "pipeline.validation.parameter_precision_missing",
                           "pipeline.validation.parameter_name_invalid",
                           "pipeline.validation.parameter_scale_missing",
                           "pipeline.validation.conflicting_required_default",
                           "pipeline.validation.default_type_mismatch",
                           "pipeline.validation.tempdb_engine_unsupported",
                           "pipeline.validation.tempdb_config_invalid",
                           "pipeline.validation.node_timeout_invalid",
                           "pipeline.validation.pipeline_self_reference",
                           "pipeline.validation.pipeline_node_has_source",
                           "pipeline.validation.pipeline_node_has_template",
                           "pipeline.validation.calculator_node_incomplete",
                           "pipeline.validation.calculator_fields_on_non_calculator",
                           "pipeline.validation.calculator_node_has_sql_fields",
                           "pipeline.validation.calculator_unknown",
                           "pipeline.validation.calculator_input_missing",
                           "pipeline.validation.calculator_input_unknown",
                           "pipeline.validation.calculator_input_type_mismatch",
                           "pipeline.validation.calculator_input_unordered",
                           "pipeline.validation.calculator_output_collision",
                           "pipeline.validation.calculator_output_name_invalid",
                           "pipeline.validation.calculator_output_shape_mismatch",
                           "pipeline.validation.calculator_output_unknown",
                           "pipeline.validation.calculator_outputs_incomplete",
                           "pipeline.validation.check_invalid",
                           "pipeline.validation.derived_parameter_echoed",
                           "request.validation.invalid"}) {
    EXPECT_TRUE(covered.count(code)) << "no case covers " << code;
  }
}

TEST(ValidationProblems, CapsTheListAndKeepsTheFirstVerdictPerPath) {
  ValidationProblems problems;
  for (int i = 0; i < 500; ++i) {
    problems.Add({"x.y.z", 400}, "p" + std::to_string(i), "m");
  }
  problems.Add({"x.y.z", 400}, "p0", "second verdict at the same path");
  EXPECT_EQ(problems.size(), ValidationProblems::kMaxProblems);
  EXPECT_EQ(problems.total(), 500u);
  try {
    problems.Throw();
  } catch (const DomainError& error) {
    EXPECT_EQ(error.details()["problems"].size(), ValidationProblems::kMaxProblems);
    EXPECT_EQ(error.details()["problems_truncated"], 400);
    EXPECT_EQ(error.details()["path"], "p0");
  }
}

TEST(PipelineBodyParser, NeverThrowsOnHostileShapes) {
  for (const char* text : {"null", "[]", "42", "{\"nodes\": 5}", "{\"nodes\": [1, null, []]}",
                           "{\"parameters\": [], \"settings\": 3, \"checks\": {}}",
                           "{\"nodes\": [{\"id\": 5, \"depends_on\": [1, {}]}]}"}) {
    ValidationProblems problems;
    EXPECT_NO_THROW({
      PipelineBody body = PipelineBodyParser::Parse(Json::parse(text), problems);
      PipelineStructureValidator::Validate(body, {}, problems);
    }) << text;
    EXPECT_FALSE(problems.empty()) << text;
  }
}

TEST(PipelineBodyParser, DeepNestingInSettingsIsWalkedIteratively) {
  Json deep = "leaf";
  for (int i = 0; i < 5000; ++i) deep = Json::array({std::move(deep)});
  Json request = {{"name", "test/deep"},
                  {"display_name", "Deep"},
                  {"settings", {{"custom", deep}}},
                  {"nodes",
                   {{{"id", "a"},
                     {"type", "DQL"},
                     {"source", "s"},
                     {"template", {{"id", "t/a"}, {"version", 1}}}}}}};
  ValidationProblems problems;
  PipelineBody body = PipelineBodyParser::Parse(request, problems);
  PipelineStructureValidator::Validate(body, {}, problems);
  EXPECT_TRUE(problems.empty()) << Describe(problems);
}

TEST(PipelineStructureValidator, IsUpstreamFollowsTransitiveEdges) {
  ValidationProblems problems;
  PipelineBody body =
      PipelineBodyParser::Parse(Json::parse(R"({"name":"test/up","display_name":"x","nodes":[
        {"id":"a","type":"DQL","source":"s","template":{"id":"t/a","version":1},"output":{"target":"tempdb","table":"a"}},
        {"id":"b","type":"DQL","source":"s","template":{"id":"t/b","version":1},"output":{"target":"tempdb","table":"b"},"depends_on":["a"]},
        {"id":"c","type":"DQL","source":"s","template":{"id":"t/c","version":1},"depends_on":["b"]}]})"),
                                problems);
  EXPECT_TRUE(IsUpstream(body, "c", "a"));
  EXPECT_FALSE(IsUpstream(body, "a", "c"));
  EXPECT_FALSE(IsUpstream(body, "c", "missing"));
}

}  // namespace
}  // namespace dp
