// The catalog's drift check: the 41 tool definitions must equal the spec's §6.2 JSON blocks
// (description and inputSchema), list in §6.1 order, compile in the validator, and carry the
// floors and mutating flags the spec declares.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "datapipelines/mcp/json_schema_validator.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tool_definition.hpp"

namespace dp {
namespace {

const char* const kSpecPath = DP_SOURCE_DIR "/../shared/spec/mcp-server-spec-v1.41.txt";

const std::vector<std::string> kSection61Order = {
    "pipelines_list",
    "pipelines_get",
    "pipelines_execute",
    "pipelines_execute_node",
    "pipelines_create",
    "pipelines_update",
    "templates_list",
    "templates_get",
    "templates_used_by",
    "templates_create",
    "templates_update",
    "templates_render",
    "templates_purge_draft",
    "datasources_list",
    "datasources_get",
    "datasources_test",
    "datasources_get_schemas",
    "datasources_get_tables",
    "datasources_get_columns",
    "datasources_get_table_stats",
    "datasources_preview_rows",
    "sql_probe",
    "executions_list",
    "executions_get",
    "executions_get_result",
    "executions_cancel",
    "calculators_list",
    "calculators_get",
    "endpoints_create",
    "endpoints_list",
    "endpoints_get",
    "endpoints_delete",
    "lake_tables_register",
    "lake_tables_import",
    "lake_tables_unregister",
    "semantics_record",
    "semantics_list",
    "semantics_retire",
    "docs_list",
    "docs_get",
    "pipelines_run_checks",
};

std::string ReadSpec() {
  std::ifstream in(kSpecPath);
  if (!in) return {};
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// End (inclusive) of the JSON object opening at `open`, honouring strings; npos if unbalanced.
std::size_t MatchBrace(const std::string& text, std::size_t open) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i;
    }
  }
  return std::string::npos;
}

struct SpecBlock {
  Json json;
  std::size_t end = 0;  // offset just past the block
};

// Every tool-definition fence: a line "{" followed by a line "\"name\": \"<tool>\",".
std::map<std::string, std::vector<SpecBlock>> ExtractToolBlocks(const std::string& spec) {
  std::map<std::string, std::vector<SpecBlock>> blocks;
  static const std::regex kHead("\n\\{[ \t\r]*\n\"name\": \"([a-z_]+)\",");
  for (auto it = std::sregex_iterator(spec.begin(), spec.end(), kHead);
       it != std::sregex_iterator(); ++it) {
    std::size_t open = static_cast<std::size_t>(it->position(0)) + 1;
    std::size_t close = MatchBrace(spec, open);
    if (close == std::string::npos) continue;
    Json json = Json::parse(spec.substr(open, close - open + 1));
    if (json.contains("inputSchema")) blocks[(*it)[1]].push_back({std::move(json), close + 1});
  }
  return blocks;
}

// The "Scope: <x>" floor stated between a tool's block and the next "6.2.N" heading.
std::string ScopeLineAfter(const std::string& spec, std::size_t from) {
  static const std::regex kNextSection("\n6\\.2\\.[0-9]+");
  static const std::regex kScope("Scope: (read|execute|author)");
  std::smatch next;
  std::string rest = spec.substr(from);
  std::string section = std::regex_search(rest, next, kNextSection) ? next.prefix().str() : rest;
  std::smatch scope;
  return std::regex_search(section, scope, kScope) ? scope[1].str() : std::string();
}

// "" when equal; otherwise where the two texts part, with a little context from each.
std::string FirstDifference(std::string_view spec, std::string_view catalog) {
  if (spec == catalog) return "";
  std::size_t i = 0;
  while (i < spec.size() && i < catalog.size() && spec[i] == catalog[i]) ++i;
  std::size_t from = i < 20 ? 0 : i - 20;
  return "differs at offset " + std::to_string(i) + ": spec \"" +
         std::string(spec.substr(from, 60)) + "\" vs catalog \"" +
         std::string(catalog.substr(from, 60)) + "\"";
}

std::map<std::string, const ToolDefinition*> ByName() {
  std::map<std::string, const ToolDefinition*> out;
  for (const ToolDefinition& tool : AllToolDefinitions()) out[std::string(tool.name())] = &tool;
  return out;
}

TEST(ToolDefinitions, FortyOneUniqueToolsInSection61Order) {
  auto tools = AllToolDefinitions();
  ASSERT_EQ(tools.size(), 41u);
  std::vector<std::string> names;
  for (const ToolDefinition& tool : tools) names.emplace_back(tool.name());
  EXPECT_EQ(names, kSection61Order);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), 41u);
  for (const std::string& name : names) {
    ASSERT_NE(FindToolDefinition(name), nullptr) << name;
    EXPECT_EQ(FindToolDefinition(name)->name(), name);
  }
  EXPECT_EQ(FindToolDefinition("datasources_create"), nullptr);  // §6.2.22 removed
}

TEST(ToolDefinitions, Section61ListMatchesTheSpec) {
  std::string spec = ReadSpec();
  if (spec.empty()) GTEST_SKIP() << "spec not found at " << kSpecPath;
  // The flattened §6.1 list is the names run together, in order.
  std::string joined;
  for (const ToolDefinition& tool : AllToolDefinitions()) joined += tool.name();
  EXPECT_NE(spec.find(joined), std::string::npos);
}

TEST(ToolDefinitions, EverySchemaParsesAndCompiles) {
  for (const ToolDefinition& tool : AllToolDefinitions()) {
    SCOPED_TRACE(std::string(tool.name()));
    EXPECT_FALSE(tool.description.empty());
    Json schema;
    ASSERT_NO_THROW(schema = Json::parse(tool.input_schema_json));
    EXPECT_EQ(schema.at("type"), "object");
    EXPECT_NO_THROW(JsonSchemaValidator{schema});
  }
}

// Where the spec names H2 as the staging engine, the catalog names what this build runs — a
// private in-memory SQLite database — because a description must never lie. These are the only
// departures from the spec text, each one phrase, applied to the spec before comparing.
const std::vector<std::pair<std::string, std::string>> kEngineWording = {
    {"against an EMPTY scratch H2 in the staging mode (no staged tables, no data)",
     "against an EMPTY scratch tempdb \u2014 a private in-memory SQLite database, the engine "
     "executions stage into (no staged tables, no data)"},
    {"means H2 stopped at the first staged table it could not find",
     "means SQLite stopped at the first staged table it could not find"},
    {"an error is a real H2 error (a syntax slip, a `VALUES` column named column1 where H2 says "
     "C1)",
     "an error is a real SQLite error (a syntax slip, a misspelled column or function)"},
    {"to prepare a staging (H2) statement against an empty scratch engine",
     "to prepare a staging statement against an empty scratch tempdb (SQLite)"},
    {"means H2 stopped at a staged table that exists only inside a full execution",
     "means SQLite stopped at a staged table that exists only inside a full execution"},
};

std::string WithEngineWording(std::string text) {
  for (const auto& [spec_phrase, ours] : kEngineWording) {
    for (size_t at = text.find(spec_phrase); at != std::string::npos;
         at = text.find(spec_phrase, at + ours.size())) {
      text.replace(at, spec_phrase.size(), ours);
    }
  }
  return text;
}

TEST(ToolDefinitions, DescriptionsAndSchemasEqualTheSpecBlocks) {
  std::string spec = ReadSpec();
  if (spec.empty()) GTEST_SKIP() << "spec not found at " << kSpecPath;
  auto blocks = ExtractToolBlocks(spec);
  EXPECT_EQ(blocks.size(), 40u);  // pipelines_update has no block of its own (§6.2.5)
  for (const ToolDefinition& tool : AllToolDefinitions()) {
    std::string name(tool.name());
    if (name == "pipelines_update") continue;  // derived; see the next test
    SCOPED_TRACE(name);
    ASSERT_EQ(blocks[name].size(), 1u) << "expected exactly one §6.2 block";
    const Json& block = blocks[name].front().json;
    EXPECT_EQ(block.at("name"), name);
    EXPECT_EQ(FirstDifference(WithEngineWording(block.at("description").get<std::string>()),
                              tool.description),
              "");
    Json spec_schema = Json::parse(WithEngineWording(block.at("inputSchema").dump()));
    EXPECT_EQ(spec_schema, Json::parse(tool.input_schema_json));
  }
}

// §6.2.5: "Same input as pipelines_create plus required id and required expected_hash".
TEST(ToolDefinitions, PipelinesUpdateIsCreatePlusIdAndExpectedHash) {
  Json create = Json::parse(FindToolDefinition("pipelines_create")->input_schema_json);
  Json update = Json::parse(FindToolDefinition("pipelines_update")->input_schema_json);
  EXPECT_EQ(update.at("properties").at("id").at("type"), "string");
  EXPECT_EQ(update.at("properties").at("id").at("format"), "uuid");
  EXPECT_EQ(update.at("properties").at("expected_hash").at("type"), "string");
  Json required = Json::array({"id", "expected_hash"});
  for (const Json& field : create.at("required")) required.push_back(field);
  EXPECT_EQ(update.at("required"), required);
  update.at("properties").erase("id");
  update.at("properties").erase("expected_hash");
  update.erase("required");
  create.erase("required");
  EXPECT_EQ(update, create);
  std::string_view description = FindToolDefinition("pipelines_update")->description;
  EXPECT_EQ(description.rfind("Update an existing pipeline by writing its DRAFT", 0), 0u);
  EXPECT_NE(description.find("pipeline.version.conflict"), std::string_view::npos);
}

TEST(ToolDefinitions, ScopesMatchEachSectionsScopeLine) {
  std::string spec = ReadSpec();
  if (spec.empty()) GTEST_SKIP() << "spec not found at " << kSpecPath;
  auto blocks = ExtractToolBlocks(spec);
  // The endpoint sections carry no Scope line (the one after §6.2.26 is the removed
  // datasources_create's leftover); the v1.19 change log rules: create/delete author, reads read.
  const std::map<std::string, std::string> kNoScopeLine = {{"endpoints_create", "author"},
                                                           {"endpoints_list", "read"},
                                                           {"endpoints_get", "read"},
                                                           {"endpoints_delete", "author"}};
  auto by_name = ByName();
  for (auto& [name, found] : blocks) {
    SCOPED_TRACE(name);
    std::string expected =
        kNoScopeLine.count(name) ? kNoScopeLine.at(name) : ScopeLineAfter(spec, found.front().end);
    ASSERT_FALSE(expected.empty()) << "no Scope line found";
    EXPECT_EQ(ToString(by_name.at(name)->access().min_scope), expected);
  }
  EXPECT_EQ(by_name.at("pipelines_update")->access().min_scope,
            Scope::kAuthor);  // §6.2.5 Scope line
}

TEST(ToolDefinitions, RolesFollowScopesExceptDatasourcesTest) {
  for (const ToolDefinition& tool : AllToolDefinitions()) {
    SCOPED_TRACE(std::string(tool.name()));
    Role expected = tool.access().min_scope == Scope::kRead      ? Role::kViewer
                    : tool.access().min_scope == Scope::kExecute ? Role::kOperator
                                                                 : Role::kAuthor;
    if (tool.name() == "datasources_test") expected = Role::kWsAdmin;  // §4.1: the one ws_admin
    EXPECT_EQ(tool.access().min_role, expected);
  }
}

TEST(ToolDefinitions, MutatingFlagsCoverEveryDeclaredWriter) {
  const std::set<std::string> kWriters = {
      // §14 known writers
      "pipelines_create", "pipelines_update", "pipelines_execute", "pipelines_execute_node",
      "templates_create", "pipelines_run_checks",
      // sections that declare themselves mutating
      "templates_update", "templates_purge_draft", "executions_cancel", "endpoints_create",
      "endpoints_delete", "lake_tables_register", "lake_tables_import", "lake_tables_unregister",
      "semantics_record", "semantics_retire",
      // §4.1: it writes the datasource's health down
      "datasources_test"};
  for (const ToolDefinition& tool : AllToolDefinitions()) {
    EXPECT_EQ(tool.mutating(), kWriters.count(std::string(tool.name())) == 1) << tool.name();
  }
}

TEST(ToolDefinitions, DescriptionsThatSayMutatingAreFlaggedMutating) {
  for (const ToolDefinition& tool : AllToolDefinitions()) {
    if (tool.description.find("Mutating.") != std::string_view::npos) {
      EXPECT_TRUE(tool.mutating()) << tool.name();
    }
  }
}

// The validator against real catalog schemas, with the -32602 wording the dispatcher sends.
std::string FirstError(std::string_view tool, const Json& arguments) {
  JsonSchemaValidator validator(Json::parse(FindToolDefinition(tool)->input_schema_json));
  return FormatInvalidParams(validator.Validate(arguments));
}

TEST(ToolDefinitions, CatalogSchemasRejectBadArgumentsNamingTheField) {
  EXPECT_EQ(FirstError("sql_probe", {{"name", "pg"}, {"sql", "select 1"}, {"limit", 501}}),
            "Invalid params: 'limit' must be <= 500");
  EXPECT_EQ(FirstError("templates_get", Json::object()),
            "Invalid params: missing required field 'id'");
  EXPECT_EQ(FirstError("endpoints_list", {{"foo", 1}}),
            "Invalid params: unknown field 'foo' (this takes no arguments)");
  EXPECT_EQ(FirstError("pipelines_get", {{"id", "not-a-uuid"}}),
            "Invalid params: 'id' must be a valid uuid");
  EXPECT_EQ(FirstError("semantics_retire",
                       {{"id", "0b6f2a3e-6d1c-4c1e-9a43-1f2e3d4c5b6a"}, {"reason", "no"}}),
            "Invalid params: 'reason' must be at least 3 characters");
  EXPECT_EQ(FirstError("sql_probe", {{"name", "pg"},
                                     {"sql", "select :p"},
                                     {"parameters", {{"p", {{"type", "TEXT"}}}}}}),
            "Invalid params: 'parameters.p.type' must be one of: \"BOOLEAN\", \"INTEGER\", "
            "\"BIGINTEGER\", \"DECIMAL\", \"BIGDECIMAL\", \"STRING\", \"BINARY\", \"DATE\", "
            "\"TIME\", \"TIMESTAMP\"");
  EXPECT_EQ(
      FirstError("pipelines_create",
                 {{"name", "daily_settlement"}, {"display_name", "D"}, {"nodes", Json::array()}}),
      "Invalid params: 'name' must match pattern "
      "^[a-z0-9][a-z0-9_.-]{0,63}(/[a-z0-9][a-z0-9_.-]{0,63}){1,9}$");
  EXPECT_EQ(FirstError("lake_tables_register", {{"name", "lake"},
                                                {"namespace", 7},
                                                {"table", "t"},
                                                {"format", "parquet"},
                                                {"location", "s3://b/p/"}}),
            "Invalid params: 'namespace' does not match any of the allowed forms");
  EXPECT_EQ(FirstError("templates_create", {{"display_name", "T"},
                                            {"description", "d"},
                                            {"body", "x"},
                                            {"imports", {{{"id", "a/b"}, {"version", 1}}}}}),
            "Invalid params: missing required field 'imports[0].alias'");
}

TEST(ToolDefinitions, CatalogSchemasAcceptGoodArguments) {
  EXPECT_EQ(FirstError("pipelines_create", {{"name", "finance/payments/daily_settlement"},
                                            {"display_name", "Daily"},
                                            {"nodes", Json::array()}}),
            "");
  EXPECT_EQ(
      FirstError("sql_probe", {{"name", "pg"},
                               {"sql", "select :p"},
                               {"parameters", {{"p", {{"type", "STRING"}, {"value", nullptr}}}}},
                               {"limit", 500}}),
      "");
  EXPECT_EQ(FirstError("lake_tables_unregister", {{"name", "lake"},
                                                  {"namespace", Json::array({"acme", "analytics"})},
                                                  {"table", "t"}}),
            "");
  EXPECT_EQ(FirstError("semantics_list", {{"datasource", "pg"}, {"since", "2026-09-11T10:15:00Z"}}),
            "");
  EXPECT_EQ(FirstError("calculators_list", Json::object()), "");
}

// Every tool refuses an argument its schema does not declare — also the ten whose spec schema
// leaves additionalProperties open — naming the nearest declared one (errors reference).
TEST(ToolDefinitions, EveryServedToolRefusesAnUndeclaredArgumentNamingTheNearest) {
  ToolCatalog catalog;
  for (const ToolDefinition& definition : AllToolDefinitions()) {
    catalog.Bind(definition.name(), [](const ToolCall&) { return Json::object(); });
  }
  for (const CatalogEntry* entry : catalog.Served()) {
    std::string tool(entry->definition->name());
    Json arguments = Json::object();
    arguments["__undeclared__"] = 1;
    auto errors = entry->validator->Validate(arguments);
    bool named = false;
    for (const auto& error : errors) {
      named |= error.keyword == "additionalProperties" && error.path == "__undeclared__";
    }
    EXPECT_TRUE(named) << tool << " ignored an undeclared argument";
  }
  ToolCatalog typo;
  typo.Bind("templates_list", [](const ToolCall&) { return Json::object(); });
  auto errors = typo.FindServed("templates_list")->validator->Validate(Json{{"prefx", ""}});
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(FormatInvalidParams(errors).find("unknown field 'prefx'"), std::string::npos);
  EXPECT_NE(FormatInvalidParams(errors).find("did you mean 'prefix'?"), std::string::npos);
}

}  // namespace
}  // namespace dp
