// The request types both surfaces parse through (service/): one case file per type, each case
// an argument object (what an MCP tool hands over, or what rest/QueryArguments made of a query
// string) and either the parsed request or the refusal's code and details.field.
//
// Case shape: {"name", "arguments", "rules"?, "expect": {...}} or {..., "refused": {"code",
// "field"}}; list_slice cases add the row count they page, "total". "rules" names the
// ListWindowRules / surface variant the case parses with
// ("rest" by default, "tool" for the MCP list tools, "datasource" for the datasource listing).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/mcp/tools/list_tool_window.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/datasources/datasource_requests.hpp"
#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/service/identity/api_key_service.hpp"
#include "datapipelines/service/list_window.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "support/json_cases.hpp"

namespace dp::test {
namespace {

constexpr int64_t kNowMs = 1'764'000'000'000;  // 2025-11-24T16:00:00Z

Json Optional(const auto& value) { return value ? Json(*value) : Json(); }

ListWindowRules Rules(const Json& c) {
  const std::string rules = c.value("rules", "rest");
  if (rules == "tool") return kListToolWindow;
  if (rules == "datasource") {
    return {.out_of_range = ListWindowRules::OutOfRange::kClampRefusingNegative};
  }
  if (rules == "clamp") return {.out_of_range = ListWindowRules::OutOfRange::kClamp};
  EXPECT_EQ(rules, "rest") << "unknown rules";
  return {};
}

// Each request type, parsed and projected to JSON for the comparison.
using Parser = std::function<Json(const Json& c)>;
const std::map<std::string, Parser>& Parsers() {
  static const std::map<std::string, Parser> parsers{
      {"list_window",
       [](const Json& c) {
         ListWindow w = ListWindow::FromJson(c["arguments"], Rules(c));
         return Json{{"limit", w.limit}, {"offset", w.offset}};
       }},
      {"list_slice",
       [](const Json& c) {
         // The window as given (not parsed: Of() is what clamps it) over `total` rows.
         ListWindow w;
         w.limit = c["arguments"].value("limit", ListWindow::kDefaultLimit);
         w.offset = c["arguments"].value("offset", 0);
         ListWindow::Slice slice = w.Of(c["total"].get<std::size_t>());
         return Json{{"begin", slice.begin}, {"end", slice.end}, {"has_more", slice.has_more}};
       }},
      {"template_list",
       [](const Json& c) {
         TemplateListQuery q = TemplateListQuery::FromJson(c["arguments"], Rules(c));
         return Json{{"dialect", Optional(q.dialect)},
                     {"type", Optional(q.type)},
                     {"q", Optional(q.q)},
                     {"prefix", Optional(q.prefix)},
                     {"is_library", Optional(q.is_library)},
                     {"limit", q.window.limit},
                     {"offset", q.window.offset}};
       }},
      {"pipeline_list",
       [](const Json& c) {
         PipelineListQuery q = PipelineListQuery::FromJson(c["arguments"], Rules(c));
         return Json{{"owner", Optional(q.owner)}, {"datasource", Optional(q.datasource)},
                     {"q", Optional(q.q)},         {"prefix", Optional(q.prefix)},
                     {"limit", q.window.limit},    {"offset", q.window.offset}};
       }},
      {"execution_list",
       [](const Json& c) {
         auto bounds = c.value("rules", "rest") == "tool"
                           ? ExecutionListQuery::StartedBounds::kIgnored
                           : ExecutionListQuery::StartedBounds::kRead;
         ExecutionListQuery q = ExecutionListQuery::FromJson(c["arguments"], Rules(c), bounds);
         return Json{{"pipeline_id", Optional(q.pipeline_id)},
                     {"status", Optional(q.status)},
                     {"started_after_ms", Optional(q.started_after_ms)},
                     {"started_before_ms", Optional(q.started_before_ms)},
                     {"limit", q.window.limit},
                     {"offset", q.window.offset}};
       }},
      {"audit_read",
       [](const Json& c) {
         AuditReadRequest r = AuditReadRequest::FromJson(c["arguments"], kNowMs);
         return Json{{"since_ms", r.since_ms},
                     {"event_prefix", r.event_prefix},
                     {"limit", r.window.limit},
                     {"offset", r.window.offset}};
       }},
      {"datasource_list",
       [](const Json& c) {
         DatasourceListQuery q = DatasourceListQuery::FromJson(c["arguments"]);
         return Json{{"dialect", Optional(q.dialect)},
                     {"instance_registry", q.instance_registry},
                     {"limit", q.window.limit},
                     {"offset", q.window.offset}};
       }},
      {"api_key_issue",
       [](const Json& c) {
         ApiKeyIssueRequest r = ApiKeyIssueRequest::FromJson(c["arguments"]);
         return Json{{"name", r.key.name},
                     {"scope", std::string(ToString(r.key.scope))},
                     {"kind", std::string(ToString(r.key.kind))},
                     {"workspace", r.key.workspace_name},
                     {"expires_at_ms", Optional(r.key.expires_at_ms)},
                     {"bindings", r.bindings},
                     {"scope_stated", r.scope_stated}};
       }},
  };
  return parsers;
}

struct Case {
  std::string type;  // the case file's stem
  Json spec;
};

std::vector<Case> LoadCases() {
  std::vector<Case> cases;
  const std::filesystem::path dir =
      std::filesystem::path(DP_SOURCE_DIR) / "tests/unit/service_requests/cases";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file);
    for (const Json& c : Json::parse(in)) cases.push_back({file.stem().string(), c});
  }
  return cases;
}

class RequestCases : public ::testing::TestWithParam<Case> {};

TEST_P(RequestCases, Parses) {
  const Case& c = GetParam();
  auto parser = Parsers().find(c.type);
  ASSERT_NE(parser, Parsers().end()) << "no parser for cases/" << c.type << ".json";
  if (c.spec.contains("refused")) {
    try {
      Json parsed = parser->second(c.spec);
      ADD_FAILURE() << "parsed, expected a refusal: " << parsed.dump();
    } catch (const DomainError& error) {
      EXPECT_EQ(error.code().code, c.spec["refused"]["code"].get<std::string>()) << error.what();
      const Json& details = error.details();
      EXPECT_EQ(details.is_object() ? details.value("field", Json()) : Json(),
                c.spec["refused"]["field"])
          << error.what();
      if (c.spec["refused"].contains("message")) {
        EXPECT_EQ(std::string(error.what()), c.spec["refused"]["message"].get<std::string>());
      }
    }
    return;
  }
  Json parsed = parser->second(c.spec);
  EXPECT_TRUE(ContainsMembers(parsed, c.spec["expect"])) << parsed.dump();
}

INSTANTIATE_TEST_SUITE_P(Cases, RequestCases, ::testing::ValuesIn(LoadCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.type + "_" +
                                  info.param.spec["name"].get<std::string>();
                         });

}  // namespace
}  // namespace dp::test
