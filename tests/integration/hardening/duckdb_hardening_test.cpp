// Issue 16, the in-process DuckDB engine: every primitive of tests/hardening_cases/
// duckdb_primitives.json (filesystem, network, extension and configuration statements author
// SQL could reach) against each handle we open over author SQL — a writable DUCKDB file, a
// read-only one, and a LAKE datasource whose root holds a registered parquet table. A refusal
// must be a catalogued DomainError and leave no file behind; the controls prove the
// datasource's own data still reads.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/duckdb/parquet_writer.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

struct DuckdbPrimitiveCase {
  std::string name;
  std::string handle;
  Json spec;
};

std::vector<DuckdbPrimitiveCase> LoadDuckdbCases() {
  std::ifstream in(std::string(DP_SOURCE_DIR) + "/tests/hardening_cases/duckdb_primitives.json");
  std::vector<DuckdbPrimitiveCase> cases;
  for (auto& spec : Json::parse(in)) {
    for (auto& handle : spec["handles"]) {
      cases.push_back({spec["name"].get<std::string>(), handle.get<std::string>(), spec});
    }
  }
  return cases;
}

std::string Replace(std::string text, const std::string& token, const std::string& value) {
  for (std::size_t at; (at = text.find(token)) != std::string::npos;) {
    text.replace(at, token.size(), value);
  }
  return text;
}

class DuckdbPrimitives : public ::testing::TestWithParam<DuckdbPrimitiveCase> {
 protected:
  void SetUp() override {
    tmp_ = fs::temp_directory_path() / ("dp_duck_harden_" + RandomBase32(8));
    root_ = tmp_ / "lake";
    outside_ = tmp_ / "outside";
    fs::create_directories(root_);
    fs::create_directories(outside_);
    std::ofstream(outside_ / "secret.csv") << "secret\nhunter2\n";
    ParquetWriter::Write("SELECT range AS id, range % 3 AS m FROM range(300)",
                         (root_ / "trips").string(), std::string("m"));
    ConnectorConfig duck;
    duck.dialect = Dialect::kDuckdb;
    duck.duckdb_path = (tmp_ / "db.duckdb").string();
    {
      auto writer = MakeConnector(duck);
      writer->Open()->Execute("CREATE TABLE seed AS SELECT 1 AS a");
    }
    const std::string& handle = GetParam().handle;
    ConnectorConfig config = duck;
    if (handle == "duckdb_readonly") config.readonly = true;
    if (handle == "lake") {
      config = ConnectorConfig::FromUrl("lake:file://" + root_.string());
      config.lake_tables.push_back(
          LakeTable{{"demo"}, "trips", "parquet", "file://" + (root_ / "trips").string(), "m"});
    }
    connector_ = MakeConnector(config);
  }
  void TearDown() override {
    connector_.reset();
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
  std::string Expand(const std::string& text) const {
    return Replace(Replace(Replace(text, "{tmp}", tmp_.string()), "{root}", root_.string()),
                   "{outside}", outside_.string());
  }

  fs::path tmp_, root_, outside_;
  std::unique_ptr<Connector> connector_;
};

TEST_P(DuckdbPrimitives, IsRefusedOrContained) {
  const Json& spec = GetParam().spec;
  std::string sql = Expand(spec["sql"].get<std::string>());
  auto conn = connector_->Acquire();
  Json rows = Json::array();
  std::optional<DomainError> error;
  try {
    conn->Query(sql, {}, QueryOptions{}, [&](const RowView& row) {
      rows.push_back(row.ToWireObject());
      return true;
    });
  } catch (const DomainError& e) {
    error = e;
  }
  if (spec["refused"].get<bool>()) {
    ASSERT_TRUE(error) << sql << " ran and returned " << rows.dump();
    EXPECT_FALSE(std::string(error->code().code).empty());
  } else {
    ASSERT_FALSE(error) << sql << ": " << error->what();
    EXPECT_EQ(rows, spec["rows"]) << sql;
  }
  if (spec.contains("absent")) {
    EXPECT_FALSE(fs::exists(Expand(spec["absent"].get<std::string>()))) << sql;
  }
  // The session is still usable and still locked.
  Json after = Json::array();
  conn->Query("SELECT current_setting('enable_external_access') AS v", {}, QueryOptions{},
              [&](const RowView& row) { return after.push_back(row.ToWireObject()), true; });
  EXPECT_EQ(after, Json::parse(R"([{"v": false}])"));
}

INSTANTIATE_TEST_SUITE_P(Cases, DuckdbPrimitives, ::testing::ValuesIn(LoadDuckdbCases()),
                         [](const ::testing::TestParamInfo<DuckdbPrimitiveCase>& info) {
                           std::string name = info.param.name + "_" + info.param.handle;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name + "_" + std::to_string(info.index);
                         });

}  // namespace
}  // namespace dp
