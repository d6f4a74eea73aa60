// The demo dataset generator: determinism (same seed → same rows, a pinned checksum), foreign
// keys and time ranges consistent, NULLs where the domain has them, DDL per dialect.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "datapipelines/demo/demo_dataset.hpp"

namespace dp {
namespace {

std::vector<DemoRow> Rows(const DemoDataset& dataset, const std::string& table) {
  std::vector<DemoRow> rows;
  dataset.ForEachRow(table, [&](const DemoRow& row) {
    rows.push_back(row);
    return true;
  });
  return rows;
}

std::size_t Col(const std::string& table, const std::string& column) {
  const auto& columns = DemoDataset::Table(table).columns;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column) return i;
  }
  ADD_FAILURE() << "no column " << column;
  return 0;
}

TEST(DemoDatasetTest, SameSeedAndScaleGiveIdenticalRows) {
  DemoDataset a(3000), b(3000);
  EXPECT_EQ(a.Checksum(), b.Checksum());
  for (const auto& table : DemoDataset::Tables()) {
    EXPECT_EQ(Rows(a, table.name), Rows(b, table.name)) << table.name;
  }
}

// Pins the generator: a change here changes every engine's copy, so bump kVersion with it.
TEST(DemoDatasetTest, ChecksumIsPinned) {
  EXPECT_EQ(DemoDataset(1000).Checksum(), "6d8d28239d15db56");
  EXPECT_EQ(DemoDataset::kVersion, 1);
}

TEST(DemoDatasetTest, SeedAndScaleChangeTheRows) {
  EXPECT_NE(DemoDataset(1000, 1).Checksum(), DemoDataset(1000, 2).Checksum());
  EXPECT_NE(DemoDataset(1000).Checksum(), DemoDataset(1001).Checksum());
}

TEST(DemoDatasetTest, RandomAccessMatchesTheStream) {
  DemoDataset dataset(500);
  auto trips = Rows(dataset, "trips");
  ASSERT_EQ(trips.size(), 500u);
  for (int64_t i : {0, 1, 250, 499}) EXPECT_EQ(dataset.TripRow(i), trips[i]);
}

TEST(DemoDatasetTest, RowCountsMatchTheDomain) {
  DemoDataset dataset(1234);
  EXPECT_EQ(Rows(dataset, "zones").size(), 60u);
  EXPECT_EQ(Rows(dataset, "calendar").size(), 731u);
  EXPECT_EQ(Rows(dataset, "weather").size(), 731u * 24);
  EXPECT_EQ(Rows(dataset, "trips").size(), 1234u);
  EXPECT_EQ(dataset.RowCount("weather"), 731 * 24);
  EXPECT_TRUE(Rows(DemoDataset(0), "trips").empty());
}

TEST(DemoDatasetTest, CalendarAndWeatherCoverTwoYearsWithoutGaps) {
  DemoDataset dataset(10);
  auto calendar = Rows(dataset, "calendar");
  EXPECT_EQ(*calendar.front()[0], "2024-01-01");
  EXPECT_EQ(*calendar.back()[0], "2025-12-31");
  EXPECT_EQ(*calendar[59][0], "2024-02-29");                 // leap day
  EXPECT_EQ(*calendar[0][Col("calendar", "weekday")], "1");  // 2024-01-01 was a Monday
  EXPECT_EQ(*calendar[0][Col("calendar", "is_holiday")], "true");
  EXPECT_EQ(*calendar[5][Col("calendar", "is_weekend")], "true");  // Saturday
  auto weather = Rows(dataset, "weather");
  EXPECT_EQ(*weather.front()[0], "2024-01-01 00:00:00");
  EXPECT_EQ(*weather.back()[0], "2025-12-31 23:00:00");
  std::set<std::string> hours;
  for (const auto& row : weather) hours.insert(*row[0]);
  EXPECT_EQ(hours.size(), weather.size());
}

TEST(DemoDatasetTest, TripsReferenceExistingZonesAndStayInRange) {
  DemoDataset dataset(5000);
  std::set<std::string> zone_ids;
  for (const auto& row : Rows(dataset, "zones")) zone_ids.insert(*row[0]);
  int64_t previous_id = 0;
  std::string previous_hour;
  for (const auto& trip : Rows(dataset, "trips")) {
    EXPECT_TRUE(zone_ids.count(*trip[Col("trips", "pickup_zone_id")]));
    EXPECT_TRUE(zone_ids.count(*trip[Col("trips", "dropoff_zone_id")]));
    const std::string& pickup = *trip[Col("trips", "pickup_at")];
    const std::string& dropoff = *trip[Col("trips", "dropoff_at")];
    EXPECT_LT(pickup, dropoff);
    EXPECT_GE(pickup, "2024-01-01 00:00:00");
    EXPECT_LE(pickup, "2025-12-31 23:59:59");
    EXPECT_EQ(std::stoll(*trip[0]), previous_id + 1);
    previous_id = std::stoll(*trip[0]);
    // Ids follow time at hour granularity (stratified sampling over the demand curve).
    EXPECT_GE(pickup.substr(0, 13), previous_hour);
    previous_hour = pickup.substr(0, 13);
  }
}

TEST(DemoDatasetTest, NullsOnlyWhereTheDomainHasThem) {
  DemoDataset dataset(5000);
  int null_passengers = 0, cash = 0;
  for (const auto& trip : Rows(dataset, "trips")) {
    bool is_cash = *trip[Col("trips", "payment_type")] == "cash";
    cash += is_cash;
    EXPECT_EQ(!trip[Col("trips", "tip")].has_value(), is_cash);  // cash tips go unrecorded
    null_passengers += !trip[Col("trips", "passenger_count")].has_value();
    for (const auto& column : DemoDataset::Table("trips").columns) {
      if (!column.nullable) {
        EXPECT_TRUE(trip[Col("trips", column.name)].has_value()) << column.name;
      }
    }
  }
  EXPECT_GT(null_passengers, 0);
  EXPECT_LT(null_passengers, 250);
  EXPECT_GT(cash, 900);
  EXPECT_LT(cash, 1600);
  int null_precip = 0;
  for (const auto& hour : Rows(dataset, "weather")) null_precip += !hour[2].has_value();
  EXPECT_GT(null_precip, 0);
  EXPECT_LT(null_precip, 200);
}

TEST(DemoDatasetTest, DecimalsCarryExactlyTheirScale) {
  DemoDataset dataset(2000);
  for (const auto& table : DemoDataset::Tables()) {
    dataset.ForEachRow(table.name, [&](const DemoRow& row) {
      for (std::size_t i = 0; i < row.size(); ++i) {
        const DemoColumn& column = table.columns[i];
        if (column.kind != DemoColumnKind::kDecimal || !row[i]) continue;
        auto dot = row[i]->find('.');
        EXPECT_NE(dot, std::string::npos) << *row[i];
        EXPECT_EQ(row[i]->size() - dot - 1, static_cast<std::size_t>(column.scale)) << *row[i];
        EXPECT_LE(dot - (row[i]->front() == '-'),
                  static_cast<std::size_t>(column.precision - column.scale))
            << column.name << " " << *row[i];
      }
      return true;
    });
  }
}

TEST(DemoDatasetTest, DistributionsLookLikeACity) {
  DemoDataset dataset(20000);
  std::map<int, int> by_hour;
  std::map<std::string, int> payments;
  for (const auto& trip : Rows(dataset, "trips")) {
    by_hour[std::stoi(trip[Col("trips", "pickup_at")]->substr(11, 2))]++;
    payments[*trip[Col("trips", "payment_type")]]++;
  }
  EXPECT_GT(by_hour[18], 3 * by_hour[4]);  // evening peak vs small hours
  EXPECT_GT(payments["card"], 11000);
  EXPECT_LT(payments["card"], 14500);
  EXPECT_GT(payments["voucher"], 0);
  auto zones = Rows(dataset, "zones");
  std::set<std::string> names;
  for (const auto& zone : zones) names.insert(*zone[1]);
  EXPECT_EQ(names.size(), 60u);
}

TEST(DemoDatasetTest, DdlFollowsTheDialect) {
  DemoTarget pg{Dialect::kPostgres, "demo", ""};
  DemoTarget my{Dialect::kMysql, "", "t_"};
  const DemoTableDef& trips = DemoDataset::Table("trips");
  std::string pg_sql = DemoDataset::CreateTableSql(trips, pg);
  EXPECT_NE(pg_sql.find("CREATE TABLE \"demo\".\"trips\""), std::string::npos);
  EXPECT_NE(pg_sql.find("\"pickup_at\" TIMESTAMP NOT NULL"), std::string::npos);
  EXPECT_EQ(pg_sql.find("REFERENCES"), std::string::npos);  // added after the load
  auto fks = DemoDataset::ForeignKeySql(trips, pg);
  ASSERT_EQ(fks.size(), 2u);
  EXPECT_EQ(fks[0],
            "ALTER TABLE \"demo\".\"trips\" ADD CONSTRAINT \"trips_pickup_zone_id_fkey\" FOREIGN "
            "KEY (\"pickup_zone_id\") REFERENCES \"demo\".\"zones\" (\"id\")");
  DemoTarget lite{Dialect::kSqlite, "", ""};
  EXPECT_NE(DemoDataset::CreateTableSql(trips, lite).find("REFERENCES \"zones\" (\"id\")"),
            std::string::npos);
  EXPECT_TRUE(DemoDataset::ForeignKeySql(trips, lite).empty());
  EXPECT_NE(pg_sql.find("\"fare\" DECIMAL(10,2) NOT NULL"), std::string::npos);
  EXPECT_NE(pg_sql.find("\"tip\" DECIMAL(10,2),"), std::string::npos);
  std::string my_sql = DemoDataset::CreateTableSql(trips, my);
  EXPECT_NE(my_sql.find("CREATE TABLE `t_trips`"), std::string::npos);
  EXPECT_NE(my_sql.find("`pickup_at` DATETIME NOT NULL"), std::string::npos);
  auto indexes = DemoDataset::CreateIndexSql(trips, my);
  ASSERT_EQ(indexes.size(), 3u);
  EXPECT_EQ(indexes[0], "CREATE INDEX `t_trips_pickup_at_idx` ON `t_trips` (`pickup_at`)");
}

TEST(DemoDatasetTest, LiteralsQuoteTextAndRenderBooleansPerDialect) {
  DemoColumn text{"name", DemoColumnKind::kText, 64};
  DemoColumn flag{"is_weekend", DemoColumnKind::kBoolean};
  DemoColumn amount{"fare", DemoColumnKind::kDecimal, 10, 2};
  EXPECT_EQ(DemoDataset::Literal(text, std::string("O'Brien"), Dialect::kPostgres), "'O''Brien'");
  EXPECT_EQ(DemoDataset::Literal(text, std::string("a\\b"), Dialect::kMysql), "'a\\\\b'");
  EXPECT_EQ(DemoDataset::Literal(text, std::nullopt, Dialect::kMysql), "NULL");
  EXPECT_EQ(DemoDataset::Literal(flag, std::string("true"), Dialect::kSqlite), "1");
  EXPECT_EQ(DemoDataset::Literal(flag, std::string("false"), Dialect::kPostgres), "FALSE");
  EXPECT_EQ(DemoDataset::Literal(amount, std::string("12.50"), Dialect::kMysql), "12.50");
}

}  // namespace
}  // namespace dp
