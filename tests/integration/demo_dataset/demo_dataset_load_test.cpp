// The demo dataset loaded through our connectors into real PostgreSQL 15, MariaDB 10.11 and
// SQLite: every engine answers the same aggregates, and they equal what the generator produced.
#include <gtest/gtest.h>

#include <unistd.h>
#include <chrono>
#include <filesystem>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/demo/demo_dataset.hpp"
#include "datapipelines/demo/demo_dataset_loader.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

constexpr int64_t kTrips = 5000;

struct Aggregates {
  std::string trips, sum_fare, min_pickup, max_dropoff, tips, null_passengers, orphans, zones,
      weather, holidays;

  bool operator==(const Aggregates&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Aggregates& a) {
  return os << "{trips " << a.trips << ", sum_fare " << a.sum_fare << ", min_pickup "
            << a.min_pickup << ", max_dropoff " << a.max_dropoff << ", tips " << a.tips
            << ", null_passengers " << a.null_passengers << ", orphans " << a.orphans << ", zones "
            << a.zones << ", weather " << a.weather << ", holidays " << a.holidays << "}";
}

// Cents as exact decimal text.
std::string Cents(int64_t cents) {
  std::string frac = std::to_string(cents % 100);
  return std::to_string(cents / 100) + "." + (frac.size() < 2 ? "0" : "") + frac;
}

int64_t ParseCents(const std::string& text) {
  auto dot = text.find('.');
  return std::stoll(text.substr(0, dot)) * 100 + std::stoll(text.substr(dot + 1));
}

// What every engine must answer, computed from the generator alone.
Aggregates Expected(const DemoDataset& dataset) {
  Aggregates e;
  int64_t cents = 0, tips = 0, null_passengers = 0, holidays = 0;
  std::string min_pickup = "9999", max_dropoff;
  dataset.ForEachRow("trips", [&](const DemoRow& row) {
    cents += ParseCents(*row[7]);
    tips += row[8].has_value();
    null_passengers += !row[5].has_value();
    min_pickup = std::min(min_pickup, *row[3]);
    max_dropoff = std::max(max_dropoff, *row[4]);
    return true;
  });
  dataset.ForEachRow("calendar", [&](const DemoRow& row) {
    holidays += *row[6] == "true";
    return true;
  });
  return {std::to_string(dataset.trip_count()),
          Cents(cents),
          min_pickup,
          max_dropoff,
          std::to_string(tips),
          std::to_string(null_passengers),
          "0",
          "60",
          std::to_string(dataset.RowCount("weather")),
          std::to_string(holidays)};
}

std::string One(Connector& connector, const std::string& sql) {
  std::string out = "<null>";
  connector.Query(sql, {}, {}, [&](const RowView& row) {
    if (!row.is_null(0)) out = std::string(*row.text(0));
    return false;
  });
  return out;
}

Aggregates Measure(Connector& connector, const DemoTarget& t) {
  const std::string trips = t.Table("trips");
  // SQLite has no exact decimal: sum whole cents there, then format like the others.
  bool sqlite = t.dialect == Dialect::kSqlite;
  std::string fare_sum =
      One(connector, sqlite ? "SELECT SUM(CAST(ROUND(fare * 100) AS INTEGER)) FROM " + trips
                            : "SELECT SUM(fare) FROM " + trips);
  if (sqlite) fare_sum = Cents(std::stoll(fare_sum));
  return {One(connector, "SELECT COUNT(*) FROM " + trips),
          fare_sum,
          One(connector, "SELECT MIN(pickup_at) FROM " + trips),
          One(connector, "SELECT MAX(dropoff_at) FROM " + trips),
          One(connector, "SELECT COUNT(tip) FROM " + trips),
          One(connector, "SELECT COUNT(*) FROM " + trips + " WHERE passenger_count IS NULL"),
          One(connector, "SELECT COUNT(*) FROM " + trips + " x LEFT JOIN " + t.Table("zones") +
                             " z ON z.id = x.dropoff_zone_id WHERE z.id IS NULL"),
          One(connector, "SELECT COUNT(*) FROM " + t.Table("zones")),
          One(connector, "SELECT COUNT(*) FROM " + t.Table("weather")),
          One(connector,
              "SELECT SUM(CASE WHEN is_holiday THEN 1 ELSE 0 END) FROM " + t.Table("calendar"))};
}

std::string Unique(const std::string& stem) {
  return stem + std::to_string(::getpid()) + "_" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000);
}

class DemoDatasetLoadTest : public ::testing::Test {
 protected:
  static const DemoDataset& Dataset() {
    static const DemoDataset dataset(kTrips);
    return dataset;
  }
  static const Aggregates& Want() {
    static const Aggregates want = Expected(Dataset());
    return want;
  }

  // Loads, checks the aggregates and that a second load of the same scale is skipped.
  void LoadAndCheck(Connector& connector, const DemoLoadOptions& options) {
    DemoDatasetLoader loader(connector, options);
    DemoLoadReport report = loader.Load(Dataset());
    EXPECT_FALSE(report.skipped);
    ASSERT_EQ(report.rows.size(), 4u);
    EXPECT_EQ(report.rows[3], (std::pair<std::string, int64_t>("trips", kTrips)));
    EXPECT_EQ(Measure(connector, loader.target()), Want());
    EXPECT_TRUE(DemoDatasetLoader(connector, options).Load(Dataset()).skipped);
  }
};

TEST_F(DemoDatasetLoadTest, PostgresAnswersTheGeneratorsAggregates) {
  DP_REQUIRE_SERVICE_URL(url, "DP_TEST_PG_URL");
  auto connector = MakeConnector(ConnectorConfig::FromUrl(url));
  DemoLoadOptions options;
  options.schema = Unique("dp_demo_it_");
  LoadAndCheck(*connector, options);
  connector->Acquire()->Execute("DROP SCHEMA \"" + options.schema + "\" CASCADE");
}

// The INSERT fallback on the engine that normally takes COPY: same rows either way.
TEST_F(DemoDatasetLoadTest, PostgresInsertBatchesAnswerTheSameAggregates) {
  DP_REQUIRE_SERVICE_URL(url, "DP_TEST_PG_URL");
  auto connector = MakeConnector(ConnectorConfig::FromUrl(url));
  DemoLoadOptions options;
  options.schema = Unique("dp_demo_it_ins_");
  options.bulk_copy = false;
  LoadAndCheck(*connector, options);
  connector->Acquire()->Execute("DROP SCHEMA \"" + options.schema + "\" CASCADE");
}

TEST_F(DemoDatasetLoadTest, MariadbAnswersTheGeneratorsAggregates) {
  DP_REQUIRE_SERVICE_URL(url, "DP_TEST_MYSQL_URL");
  auto connector = MakeConnector(ConnectorConfig::FromUrl(url));
  DemoLoadOptions options;
  options.table_prefix = Unique("dpdemo_") + "_";
  LoadAndCheck(*connector, options);
  DemoTarget target{Dialect::kMysql, "", options.table_prefix};
  auto session = connector->Acquire();
  for (const char* table : {"demo_dataset_info", "trips", "weather", "calendar", "zones"}) {
    session->Execute("DROP TABLE IF EXISTS " + target.Table(table));
  }
}

TEST_F(DemoDatasetLoadTest, SqliteAnswersTheGeneratorsAggregatesAndReloadsOnANewScale) {
  auto path = std::filesystem::temp_directory_path() / (Unique("dp_demo_it_") + ".db");
  {
    ConnectorConfig config;
    config.dialect = Dialect::kSqlite;
    config.sqlite_path = path.string();
    auto connector = MakeConnector(config);
    LoadAndCheck(*connector, {});
    // A different scale is not the recorded one: everything is rebuilt at the new size.
    DemoLoadReport smaller = DemoDatasetLoader(*connector).Load(DemoDataset(100));
    EXPECT_FALSE(smaller.skipped);
    EXPECT_EQ(One(*connector, "SELECT COUNT(*) FROM trips"), "100");
    EXPECT_EQ(One(*connector, "SELECT trips FROM demo_dataset_info"), "100");
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace dp
