#pragma once
// The deterministic demo dataset (issue 3 "Demo data"): city mobility — zones, calendar,
// hourly weather and taxi trips. Every value comes from integer arithmetic over a seeded
// splitmix64 stream (no std distributions, no floating point), so the same seed and trip count
// give byte-identical rows on every platform and every engine.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "datapipelines/connectors/dialect.hpp"

namespace dp {

enum class DemoColumnKind {
  kInteger,
  kSmallInt,
  kBigInt,
  kDecimal,
  kText,
  kDate,
  kTimestamp,
  kBoolean
};

struct DemoColumn {
  std::string name;
  DemoColumnKind kind = DemoColumnKind::kInteger;
  int precision = 0;  // kDecimal: DECIMAL(precision, scale); kText: VARCHAR(precision)
  int scale = 0;
  bool nullable = false;
};

struct DemoForeignKey {
  std::string column;
  std::string references_table;  // logical name; always its `id`
};

struct DemoTableDef {
  std::string name;  // logical name ("trips")
  std::vector<DemoColumn> columns;
  std::string primary_key;
  std::vector<DemoForeignKey> foreign_keys;
  std::vector<std::string> indexed_columns;  // secondary indexes, built after the load
};

// The DDL type of a demo column in `dialect` (the loader's CREATE TABLE, the lake's read_csv).
std::string DemoColumnType(const DemoColumn& column, Dialect dialect);

// Canonical text per column, nullopt = NULL: integers as digits, decimals with exactly `scale`
// digits, dates YYYY-MM-DD, timestamps "YYYY-MM-DD HH:MM:SS", booleans "true"/"false".
using DemoRow = std::vector<std::optional<std::string>>;

// Where the tables go: an optional schema (PostgreSQL) and a name prefix (shared databases).
struct DemoTarget {
  Dialect dialect = Dialect::kSqlite;
  std::string schema;
  std::string table_prefix;

  std::string Quote(std::string_view identifier) const;
  // The quoted, schema-qualified name of a logical table.
  std::string Table(std::string_view logical) const;
};

class DemoDataset {
 public:
  static constexpr int kVersion = 1;
  static constexpr uint64_t kDefaultSeed = 20240101;
  static constexpr int kZoneCount = 60;
  static constexpr int kCalendarDays = 731;  // 2024-01-01 … 2025-12-31

  explicit DemoDataset(int64_t trip_count, uint64_t seed = kDefaultSeed);

  int64_t trip_count() const { return trip_count_; }
  uint64_t seed() const { return seed_; }

  // zones, calendar, weather, trips — parents before children (load order).
  static const std::vector<DemoTableDef>& Tables();
  static const DemoTableDef& Table(std::string_view logical);
  int64_t RowCount(std::string_view logical) const;

  // CREATE TABLE for one table in the target's dialect: primary key always, foreign keys inline
  // on SQLite (which cannot add them later) and via ForeignKeySql after the load elsewhere —
  // one validating pass instead of a check per inserted row.
  static std::string CreateTableSql(const DemoTableDef& table, const DemoTarget& target);
  static std::vector<std::string> ForeignKeySql(const DemoTableDef& table,
                                                const DemoTarget& target);
  static std::vector<std::string> CreateIndexSql(const DemoTableDef& table,
                                                 const DemoTarget& target);
  // A value as a SQL literal of the dialect (our generated text only; quotes are escaped).
  static std::string Literal(const DemoColumn& column, const std::optional<std::string>& value,
                             Dialect dialect);

  // Streams one table's rows in primary-key order; stops when `on_row` returns false.
  void ForEachRow(std::string_view logical,
                  const std::function<bool(const DemoRow&)>& on_row) const;
  // Random access to one row of a table (index 0 … RowCount-1), so bulk loaders can pull rows.
  DemoRow Row(std::string_view logical, int64_t index) const;
  // Random access to one trip (index 0 … trip_count-1, id = index + 1).
  DemoRow TripRow(int64_t index) const;
  // FNV-1a 64 over every row of every table, hex: pins the generator's output.
  std::string Checksum() const;

 private:
  struct HourWeather {
    int temp_tenths = 0;
    int precip_tenths = 0;  // -1 = not recorded (NULL)
    const char* condition = "";
  };
  struct Zone {
    int borough = 0;
    int lat_micro = 0;
    int lon_micro = 0;
    int area_hundredths = 0;
    uint64_t popularity = 0;
  };

  void BuildZones();
  void BuildWeather();
  void BuildDemand();
  DemoRow ZoneRow(int index) const;
  DemoRow CalendarRow(int day) const;
  DemoRow WeatherRow(int hour) const;
  int PickZone(uint64_t draw) const;
  int PickDropoff(int pickup, uint64_t state) const;

  int64_t trip_count_;
  uint64_t seed_;
  std::vector<Zone> zones_;
  std::vector<uint64_t> zone_cumulative_;
  std::vector<HourWeather> weather_;
  std::vector<uint64_t> demand_cumulative_;  // per hour of the two years
};

}  // namespace dp
