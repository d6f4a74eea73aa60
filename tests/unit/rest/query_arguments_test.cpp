// rest/QueryArguments: a query string translated to typed JSON and nothing else (no range, no
// default), and the REST listings' query strings through it into the service's FromJson — the
// same refusals (code, details.field) the routes answered before the window moved to service/.
//
// cases/query_arguments.json: {"name", "query", "fields": {strings?, integers?, booleans?,
//   empty_is_absent?}, "expect": {...}} or {..., "refused": {"field", "message"?}}.
// cases/listing_queries.json: {"name", "listing": templates|pipelines|executions|audit, "query",
//   "expect": {limit?, offset?}} or {..., "refused": {"field"}}.
#include <gtest/gtest.h>

#include <fstream>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/service/templates/template_service.hpp"
#include "support/json_cases.hpp"

namespace dp::test {
namespace {

std::vector<Json> Load(const char* file) {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/unit/rest/cases/" + file);
  std::vector<Json> cases;
  for (const Json& c : Json::parse(in)) cases.push_back(c);
  return cases;
}

HttpRequest Get(const std::string& query) {
  HttpRequest request;
  request.method = "GET";
  request.query = query;
  return request;
}

QueryFields Fields(const Json& spec, std::vector<std::string>& storage) {
  // The names outlive the call: `storage` holds them, reserved so the pointers stay put.
  storage.clear();
  storage.reserve(64);
  auto names = [&](const char* kind) {
    std::vector<const char*> out;
    for (const Json& name : spec.value(kind, Json::array())) {
      storage.push_back(name.get<std::string>());
      out.push_back(storage.back().c_str());
    }
    return out;
  };
  QueryFields fields;
  fields.strings = names("strings");
  fields.integers = names("integers");
  fields.booleans = names("booleans");
  fields.empty_is_absent = spec.value("empty_is_absent", false);
  return fields;
}

void ExpectRefusal(const DomainError& error, const Json& refused) {
  EXPECT_EQ(error.code(), errc::kRequestInvalid) << error.what();
  EXPECT_EQ(error.details().value("field", Json()), refused["field"]) << error.what();
  if (refused.contains("message")) {
    EXPECT_EQ(std::string(error.what()), refused["message"].get<std::string>());
  }
}

class QueryArgumentsCases : public ::testing::TestWithParam<Json> {};

TEST_P(QueryArgumentsCases, Translates) {
  const Json& c = GetParam();
  std::vector<std::string> storage;
  QueryFields fields = Fields(c["fields"], storage);
  try {
    Json arguments = QueryArguments(Get(c["query"].get<std::string>()), fields);
    if (c.contains("refused")) {
      ADD_FAILURE() << "translated, expected a refusal: " << arguments.dump();
    } else {
      // Exactly the expected members (in any order: Json keeps insertion order).
      EXPECT_EQ(arguments.size(), c["expect"].size()) << arguments.dump();
      EXPECT_TRUE(ContainsMembers(arguments, c["expect"])) << arguments.dump();
    }
  } catch (const DomainError& error) {
    if (!c.contains("refused")) throw;
    ExpectRefusal(error, c["refused"]);
  }
}

// What each listing route does with its query string.
Json Window(const std::string& listing, const HttpRequest& request) {
  if (listing == "templates") {
    auto q = TemplateListQuery::FromJson(
        QueryArguments(request, {.strings = {"dialect", "type", "q", "prefix"},
                                 .integers = {"limit", "offset"},
                                 .booleans = {"is_library"}}));
    return Json{{"limit", q.window.limit}, {"offset", q.window.offset}};
  }
  if (listing == "pipelines") {
    auto q = PipelineListQuery::FromJson(QueryArguments(
        request,
        {.strings = {"owner", "datasource", "q", "prefix"}, .integers = {"limit", "offset"}}));
    return Json{{"limit", q.window.limit}, {"offset", q.window.offset}};
  }
  if (listing == "executions") {
    auto q = ExecutionListQuery::FromJson(QueryArguments(
        request, {.strings = {"pipeline_id", "status", "started_after", "started_before"},
                  .integers = {"limit", "offset"}}));
    return Json{{"limit", q.window.limit}, {"offset", q.window.offset}};
  }
  EXPECT_EQ(listing, "audit");
  auto r = AuditReadRequest::FromJson(
      QueryArguments(request, {.strings = {"since", "event"}, .integers = {"limit", "offset"}}),
      1'764'000'000'000);
  return Json{{"limit", r.window.limit}, {"offset", r.window.offset}};
}

class ListingQueryCases : public ::testing::TestWithParam<Json> {};

TEST_P(ListingQueryCases, Parses) {
  const Json& c = GetParam();
  try {
    Json window = Window(c["listing"].get<std::string>(), Get(c["query"].get<std::string>()));
    if (c.contains("refused")) {
      ADD_FAILURE() << "parsed, expected a refusal: " << window.dump();
    } else {
      EXPECT_TRUE(ContainsMembers(window, c["expect"])) << window.dump();
    }
  } catch (const DomainError& error) {
    if (!c.contains("refused")) throw;
    ExpectRefusal(error, c["refused"]);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, QueryArgumentsCases,
                         ::testing::ValuesIn(Load("query_arguments.json")), CaseName);
INSTANTIATE_TEST_SUITE_P(Cases, ListingQueryCases,
                         ::testing::ValuesIn(Load("listing_queries.json")), CaseName);

}  // namespace
}  // namespace dp::test
