// The demo copies scripts/test loads before the integration run: PostgreSQL schema
// $DP_TEST_DEMO_PG_SCHEMA (≥ 1,000,000 trips, via COPY) and MariaDB tables named
// $DP_TEST_DEMO_MYSQL_PREFIX* (the same 1,000,000 trips, via INSERT batches). Both must hold
// exactly what the generator produces for their recorded seed and scale, and so each other.
// (The pickup-time draw is stratified over the whole trip count, so only copies of the same
// scale hold the same trips.)
#include <gtest/gtest.h>

#include <cstdlib>

#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/demo/demo_dataset.hpp"
#include "datapipelines/demo/demo_dataset_loader.hpp"
#include "support/test_env.hpp"

namespace dp {
namespace {

constexpr int64_t kPostgresMinTrips = 1'000'000;

// Binds `var` to a demo name scripts/test exports; skips (fails under DP_REQUIRE_SERVICES=1).
#define DP_REQUIRE_DEMO_NAME(var, env_name)                                                     \
  std::string var = ::dp::test::ServiceUrl(env_name);                                           \
  if (var.empty()) {                                                                            \
    if (::dp::test::ServicesRequired()) FAIL() << env_name << " is not set";                    \
    GTEST_SKIP() << env_name << " not set (scripts/test loads the demo copies and exports it)"; \
  }

struct DemoCopy {
  std::unique_ptr<Connector> connector;
  DemoTarget target;
  DemoInstalledInfo info;
};

// Every column of the first row as text ("<null>" for NULL).
std::vector<std::string> FirstRow(Connector& connector, const std::string& sql) {
  std::vector<std::string> out;
  connector.Query(sql, {}, {}, [&](const RowView& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      out.push_back(row.is_null(i) ? "<null>" : std::string(*row.text(i)));
    }
    return false;
  });
  return out;
}

std::string CopyCents(int64_t cents) {
  std::string frac = std::to_string(cents % 100);
  return std::to_string(cents / 100) + "." + (frac.size() < 2 ? "0" : "") + frac;
}

int64_t ParseCopyCents(const std::string& text) {
  auto dot = text.find('.');
  return std::stoll(text.substr(0, dot)) * 100 + std::stoll(text.substr(dot + 1));
}

std::string TripAggregatesSql(const DemoTarget& t) {
  return "SELECT COUNT(*), SUM(fare), SUM(distance_km), COUNT(tip), SUM(tip), "
         "COUNT(passenger_count), SUM(passenger_count), SUM(pickup_zone_id), "
         "SUM(dropoff_zone_id), MIN(pickup_at), MAX(dropoff_at) FROM " +
         t.Table("trips");
}

// The same aggregates from the generator, over every trip of the recorded scale.
std::vector<std::string> ExpectedTripAggregates(const DemoInstalledInfo& info) {
  DemoDataset dataset(info.trips, info.seed);
  int64_t n = info.trips;
  int64_t fare = 0, distance = 0, tips = 0, tip_cents = 0, riders = 0, rider_sum = 0;
  int64_t pickup_zones = 0, dropoff_zones = 0;
  std::string min_pickup = "9999", max_dropoff;
  for (int64_t i = 0; i < n; ++i) {
    DemoRow row = dataset.TripRow(i);
    pickup_zones += std::stoll(*row[1]);
    dropoff_zones += std::stoll(*row[2]);
    min_pickup = std::min(min_pickup, *row[3]);
    max_dropoff = std::max(max_dropoff, *row[4]);
    if (row[5]) ++riders, rider_sum += std::stoll(*row[5]);
    distance += ParseCopyCents(*row[6]);
    fare += ParseCopyCents(*row[7]);
    if (row[8]) ++tips, tip_cents += ParseCopyCents(*row[8]);
  }
  return {std::to_string(n),
          CopyCents(fare),
          CopyCents(distance),
          std::to_string(tips),
          CopyCents(tip_cents),
          std::to_string(riders),
          std::to_string(rider_sum),
          std::to_string(pickup_zones),
          std::to_string(dropoff_zones),
          min_pickup,
          max_dropoff};
}

// Scale-independent tables, as text both engines render alike (no collation-dependent MIN).
std::vector<std::string> DimensionSql(const DemoTarget& t) {
  return {
      "SELECT COUNT(*), SUM(id), SUM(lat), SUM(lon), SUM(area_km2), COUNT(DISTINCT name), "
      "COUNT(DISTINCT borough) FROM " +
          t.Table("zones"),
      "SELECT COUNT(*), MIN(" + t.Quote("date") + "), MAX(" + t.Quote("date") +
          "), SUM(weekday), SUM(CASE WHEN is_weekend THEN 1 ELSE 0 END), "
          "SUM(CASE WHEN is_holiday THEN 1 ELSE 0 END) FROM " +
          t.Table("calendar"),
      "SELECT COUNT(*), MIN(ts), MAX(ts), SUM(temp_c), COUNT(precip_mm), SUM(precip_mm), "
      "COUNT(DISTINCT conditions) FROM " +
          t.Table("weather"),
  };
}

class DemoCopiesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DP_REQUIRE_SERVICE_URL(pg_url, "DP_TEST_PG_URL");
    DP_REQUIRE_SERVICE_URL(mysql_url, "DP_TEST_MYSQL_URL");
    DP_REQUIRE_DEMO_NAME(pg_schema, "DP_TEST_DEMO_PG_SCHEMA");
    DP_REQUIRE_DEMO_NAME(mysql_prefix, "DP_TEST_DEMO_MYSQL_PREFIX");
    DemoLoadOptions pg_options, mysql_options;
    pg_options.schema = pg_schema;
    mysql_options.table_prefix = mysql_prefix;
    Open(pg_url, pg_options, pg_);
    Open(mysql_url, mysql_options, mysql_);
  }

  static void Open(const std::string& url, const DemoLoadOptions& options, DemoCopy& copy) {
    copy.connector = MakeConnector(ConnectorConfig::FromUrl(url));
    DemoDatasetLoader loader(*copy.connector, options);
    copy.target = loader.target();
    auto info = loader.Installed(*copy.connector->Acquire());
    ASSERT_TRUE(info) << "no complete demo load recorded at " << copy.target.Table("trips")
                      << " (run datapipelines demo-data)";
    EXPECT_EQ(info->version, DemoDataset::kVersion);
    copy.info = *info;
  }

  DemoCopy pg_, mysql_;
};

TEST_F(DemoCopiesTest, PostgresHoldsAtLeastAMillionTrips) {
  EXPECT_GE(pg_.info.trips, kPostgresMinTrips);
  auto count = FirstRow(*pg_.connector, "SELECT COUNT(*) FROM " + pg_.target.Table("trips"));
  ASSERT_EQ(count.size(), 1u);
  EXPECT_EQ(count[0], std::to_string(pg_.info.trips));
}

TEST_F(DemoCopiesTest, BothEnginesHoldExactlyTheGeneratorsTrips) {
  EXPECT_EQ(pg_.info.seed, mysql_.info.seed);
  EXPECT_EQ(pg_.info.trips, mysql_.info.trips) << "the copies must be the same dataset";
  auto expected = ExpectedTripAggregates(pg_.info);
  EXPECT_EQ(FirstRow(*pg_.connector, TripAggregatesSql(pg_.target)), expected);
  EXPECT_EQ(FirstRow(*mysql_.connector, TripAggregatesSql(mysql_.target)), expected);
}

TEST_F(DemoCopiesTest, ScaleIndependentTablesAggregateIdenticallyAcrossEngines) {
  auto pg_sql = DimensionSql(pg_.target);
  auto mysql_sql = DimensionSql(mysql_.target);
  for (std::size_t i = 0; i < pg_sql.size(); ++i) {
    auto pg = FirstRow(*pg_.connector, pg_sql[i]);
    EXPECT_FALSE(pg.empty());
    EXPECT_EQ(pg, FirstRow(*mysql_.connector, mysql_sql[i])) << pg_sql[i];
  }
}

}  // namespace
}  // namespace dp
