// The catalog as served: 41 tools in §6.1 order, each file agreeing with its operation row, every
// schema compiling in the validator and refusing what it should. (Whether the files still say
// what the spec says is the unit.tool_catalog_drift test: tools/tool-catalog/extract.py --check.)
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "datapipelines/mcp/json_schema_validator.hpp"
#include "datapipelines/mcp/tool_catalog.hpp"
#include "datapipelines/mcp/tool_definition.hpp"
#include "datapipelines/util/embedded_file.hpp"

namespace dp {
namespace {

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

// The embedded files are the catalog's source (tools/tool-catalog/extract.py writes them from the
// spec; the unit.tool_catalog_drift test holds them to it): each names its tool, and its scope
// and mutating flag are the tool's operation row.
TEST(ToolDefinitions, EachFileCarriesItsOperationsScopeAndMutatingFlag) {
  auto by_name = ByName();
  std::set<std::string> files;
  for (const EmbeddedFile& file : EmbeddedToolCatalogFiles()) {
    if (file.path == "order.json") continue;
    SCOPED_TRACE(std::string(file.path));
    Json tool = Json::parse(file.bytes);
    std::string name = tool.at("name").get<std::string>();
    EXPECT_EQ(name + ".json", file.path);
    ASSERT_EQ(by_name.count(name), 1u) << "a file the catalog does not serve";
    EXPECT_EQ(tool.at("scope"), ToString(by_name.at(name)->access().min_scope));
    EXPECT_EQ(tool.at("mutating"), by_name.at(name)->mutating());
    files.insert(name);
  }
  EXPECT_EQ(files.size(), AllToolDefinitions().size());
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

// MCP spec §4.1: no tool's floor is promote or super_admin, and only datasources_test's is
// ws_admin (release, promotion and membership are human verbs with no tool).
TEST(ToolDefinitions, NoToolNeedsAHumanCapability) {
  for (const ToolDefinition& tool : AllToolDefinitions()) {
    SCOPED_TRACE(std::string(tool.name()));
    const RoleFloor floor = tool.access().min_role;
    EXPECT_NE(floor, RoleFloor::kPromote);
    EXPECT_NE(floor, RoleFloor::kSuperAdmin);
    EXPECT_EQ(floor == RoleFloor::kWsAdmin, tool.name() == "datasources_test");
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
