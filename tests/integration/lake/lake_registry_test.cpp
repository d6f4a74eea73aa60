// Issue 16: the dp-lake registry end to end below the surfaces — register, import (inline and
// by a manifest file under the root), the LAKE reads (tables with partition_column, columns,
// footer stats with the partition pseudo-index, lake_table_not_found), unregister, and every
// refusal of tests/lake_cases/register_refusals.json, each of which must leave the registry
// unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "datapipelines/connectors/duckdb/parquet_writer.hpp"
#include "datapipelines/lake/lake_table_service.hpp"
#include "datapipelines/lake/lake_table_store.hpp"
#include "integration/datasources/datasource_harness.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

std::string Replace(std::string text, const std::string& token, const std::string& value) {
  for (std::size_t at; (at = text.find(token)) != std::string::npos;) {
    text.replace(at, token.size(), value);
  }
  return text;
}

Json Expand(const Json& value, const std::string& root) {
  if (value.is_string()) return Replace(value.get<std::string>(), "{root}", root);
  if (value.is_array() || value.is_object()) {
    Json out = value;
    for (auto& [key, item] : out.items()) item = Expand(item, root);
    return out;
  }
  return value;
}

class LakeRegistry : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("dp_lake_it_" + RandomBase32(8));
    root_ = (tmp_ / "lake").string();
    fs::create_directories(tmp_ / "lake" / "empty");
    fs::create_directories(tmp_ / "outside");
    std::ofstream(tmp_ / "lake" / "notes.parquet") << "not parquet";
    ParquetWriter::Write(
        "SELECT range AS id, 'm' || (range % 3) AS month, range % 7 AS zone_id, range * 1.5 AS "
        "fare FROM range(300)",
        root_ + "/trips", std::string("month"));
    ParquetWriter::Write("SELECT range AS zone_id, 'zone ' || range AS zone FROM range(7)",
                         root_ + "/zones.parquet", std::nullopt);
    lake_store_ = OpenLakeTableStore(h_.store());
    audit_ = std::make_unique<AuditLog>(h_.store().Audit());
    lake_ = std::make_unique<LakeTableService>(*lake_store_, h_.service(), *audit_);
    h_.lake_tables = [this](const std::string& name) { return lake_->TablesOf(name); };
    h_.service().Create(AdminSession("ws-a"), Json{{"name", "lake1"},
                                                   {"display_name", "Lake"},
                                                   {"dialect", "LAKE"},
                                                   {"jdbc_url", "jdbc:lake:file://" + root_},
                                                   {"readonly", true},
                                                   {"workspace", "alpha"}});
    h_.service().Create(AdminSession("ws-a"),
                        Json{{"name", "plain"},
                             {"display_name", "Plain"},
                             {"dialect", "SQLITE"},
                             {"jdbc_url", "jdbc:sqlite:" + (tmp_ / "plain.db").string()},
                             {"workspace", "alpha"}});
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
  Json Trips() const {
    return Json{{"name", "lake1"},
                {"namespace", "demo"},
                {"table", "trips"},
                {"format", "parquet"},
                {"location", "file://" + root_ + "/trips"},
                {"partition_column", "month"}};
  }

  ServiceHarness h_;
  fs::path tmp_;
  std::string root_;
  std::unique_ptr<LakeTableStore> lake_store_;
  std::unique_ptr<AuditLog> audit_;
  std::unique_ptr<LakeTableService> lake_;
};

TEST_F(LakeRegistry, RegisterReadAndUnregister) {
  Principal agent = Key("ws-a");
  Json row = lake_->Register(agent, Trips());
  EXPECT_EQ(row["qualified_name"], "demo.trips");
  EXPECT_EQ(row["partition_column"], "month");
  EXPECT_EQ(row["namespace"], Json::array({"demo"}));
  EXPECT_TRUE(row.contains("registered_at"));

  Json tables = h_.explorer().GetTables(agent, TableLocator{"lake1", std::nullopt, {}, ""});
  ASSERT_EQ(tables["tables"].size(), 1u);
  EXPECT_EQ(tables["tables"][0]["name"], "trips");
  EXPECT_EQ(tables["tables"][0]["namespace"], Json::array({"demo"}));
  EXPECT_EQ(tables["tables"][0]["partition_column"], "month");

  Json columns = h_.explorer().GetColumns(
      agent, TableLocator{"lake1", std::vector<std::string>{"demo"}, {}, "trips"});
  std::set<std::string> names;
  for (const auto& column : columns) names.insert(column["name"].get<std::string>());
  EXPECT_EQ(names, (std::set<std::string>{"id", "month", "zone_id", "fare"}));

  Json stats = h_.explorer().GetTableStats(
      agent, TableLocator{"lake1", std::vector<std::string>{"demo"}, {}, "trips"});
  EXPECT_EQ(stats["stats_source"], "parquet_metadata");
  EXPECT_EQ(stats["row_estimate"], 300);
  ASSERT_EQ(stats["indexes"].size(), 1u);
  EXPECT_EQ(stats["indexes"][0]["name"], "partition");
  EXPECT_EQ(stats["indexes"][0]["kind"], "partition");
  EXPECT_EQ(stats["indexes"][0]["columns"], Json::array({"month"}));
  bool saw_id = false;
  for (const auto& column : stats["columns"]) {
    if (column["name"] != "id") continue;
    saw_id = true;
    EXPECT_EQ(column["min"], "0.0");
    EXPECT_EQ(column["max"], "299.0");  // numeric-aware: not the lexical "99"
  }
  EXPECT_TRUE(saw_id) << stats.dump();

  // sql_probe reports DuckDB's pruning: a filter on the partition column scans 1 of 3 files;
  // a filter on another column prunes nothing and reports no pruning information.
  ProbeRequest pruned;
  pruned.datasource = "lake1";
  pruned.sql = "SELECT count(*) AS n FROM demo.trips WHERE month = 'm1'";
  Json probe = h_.explorer().Probe(agent, pruned);
  EXPECT_EQ(probe["rows"][0]["n"], "100") << probe.dump();
  EXPECT_EQ(probe["plan"]["partitions_scanned"], 1) << probe["plan"].dump();
  EXPECT_EQ(probe["plan"]["partitions_total"], 3);
  ProbeRequest full = pruned;
  full.sql = "SELECT count(*) AS n FROM demo.trips WHERE zone_id = 2";
  Json scanned = h_.explorer().Probe(agent, full);
  EXPECT_FALSE(scanned["plan"].contains("partitions_scanned")) << scanned["plan"].dump();

  // A table the registry does not carry is the lake's own not-found.
  DomainError missing = Refusal([&] {
    h_.explorer().GetColumns(agent,
                             TableLocator{"lake1", std::vector<std::string>{"demo"}, {}, "nope"});
  });
  EXPECT_EQ(std::string(missing.code().code), "datasource.lake_table_not_found");

  DomainError duplicate = Refusal([&] { lake_->Register(agent, Trips()); });
  EXPECT_EQ(std::string(duplicate.code().code), "datasource.lake_table_duplicate");
  EXPECT_EQ(duplicate.code().http_status, 409);

  Json gone =
      lake_->Unregister(agent, Json{{"name", "lake1"}, {"namespace", "demo"}, {"table", "trips"}});
  EXPECT_EQ(gone, (Json{{"datasource", "lake1"}, {"table", "demo.trips"}, {"deleted", true}}));
  EXPECT_TRUE(h_.explorer()
                  .GetTables(agent, TableLocator{"lake1", std::nullopt, {}, ""})["tables"]
                  .empty());
  DomainError again = Refusal([&] {
    lake_->Unregister(agent, Json{{"name", "lake1"}, {"namespace", "demo"}, {"table", "trips"}});
  });
  EXPECT_EQ(std::string(again.code().code), "datasource.lake_table_not_found");
  EXPECT_EQ(again.code().http_status, 404);
}

TEST_F(LakeRegistry, ImportInlineAndByManifestIsIdempotent) {
  Principal agent = Key("ws-a");
  Json inline_import{
      {"name", "lake1"},
      {"namespace", "demo"},
      {"publish_prefix", "file://" + root_},
      {"tables",
       Json::array({Json{{"name", "trips"}, {"path", "trips"}, {"partition_column", "month"}},
                    Json{{"name", "zones"},
                         {"format", "parquet"},
                         {"location", "file://" + root_ + "/zones.parquet"}}})}};
  Json first = lake_->Import(agent, inline_import);
  EXPECT_EQ(first["registered_count"], 2);
  EXPECT_EQ(first["already_registered_count"], 0);
  Json second = lake_->Import(agent, inline_import);
  EXPECT_EQ(second["registered_count"], 0);
  EXPECT_EQ(second["already_registered"], Json::array({"demo.trips", "demo.zones"}));

  std::ofstream(root_ + "/manifest.json")
      << R"({"namespace": "mart", "tables": [{"name": "zones", "path": "zones.parquet"}]})";
  Json by_url = lake_->Import(
      agent, Json{{"name", "lake1"}, {"manifest_url", "file://" + root_ + "/manifest.json"}});
  EXPECT_EQ(by_url["registered_count"], 1);
  EXPECT_EQ(by_url["registered"][0]["qualified_name"], "mart.zones");
  EXPECT_EQ(by_url["registered"][0]["location"], "file://" + root_ + "/zones.parquet");

  // The SSRF boundary: nothing outside the datasource's own root is fetched.
  std::ofstream(tmp_ / "outside" / "manifest.json") << R"({"tables": []})";
  fs::create_symlink(tmp_ / "outside" / "manifest.json", root_ + "/linked.json");
  for (const std::string& url : std::vector<std::string>{
           "http://127.0.0.1:9/manifest.json", "s3://bucket/manifest.json",
           "file://" + (tmp_ / "outside" / "manifest.json").string(),
           "file://" + root_ + "/../outside/manifest.json", "file://" + root_ + "/linked.json"}) {
    DomainError forbidden = Refusal([&] {
      lake_->Import(agent, Json{{"name", "lake1"}, {"manifest_url", url}});
    });
    EXPECT_EQ(std::string(forbidden.code().code),
              "datasource.validation.lake_manifest_url_forbidden")
        << url;
  }
  EXPECT_EQ(lake_->List(agent, "lake1")["tables"].size(), 3u);
}

TEST_F(LakeRegistry, EveryRefusalChangesNothing) {
  Principal agent = Key("ws-a");
  lake_->Register(agent, Trips());
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/lake_cases/register_refusals.json");
  Json cases = Json::parse(in);
  ASSERT_FALSE(cases.empty());
  for (const auto& item : cases) {
    Json args = Expand(item["args"], root_);
    DomainError error = Refusal([&] { lake_->Register(agent, args); });
    EXPECT_EQ(std::string(error.code().code), item["code"].get<std::string>())
        << item["name"] << ": " << error.what();
    // The same entry through import is refused the same way, and nothing is stored.
    if (args["name"] == "lake1") {
      Json entry = args;
      entry.erase("name");
      entry["name"] = args["table"];
      entry.erase("table");
      DomainError imported = Refusal([&] {
        lake_->Import(agent, Json{{"name", "lake1"}, {"tables", Json::array({entry})}});
      });
      EXPECT_EQ(std::string(imported.code().code), item["code"].get<std::string>())
          << item["name"] << " (import)";
    }
  }
  Json rows = lake_->List(agent, "lake1")["tables"];
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["qualified_name"], "demo.trips");
}

}  // namespace
}  // namespace dp
