#include "datapipelines/demo/demo_dataset.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

namespace dp {
namespace {

constexpr uint64_t kStreamZones = 1;
constexpr uint64_t kStreamWeather = 2;
constexpr uint64_t kStreamTrips = 3;
constexpr int kFirstYear = 2024;

// splitmix64: fixed integer arithmetic, identical on every compiler and standard library.
class SplitMix {
 public:
  SplitMix(uint64_t seed, uint64_t stream, uint64_t index) : state_(seed) {
    state_ = Next() + stream;
    state_ = Next() + index;
  }
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Inclusive range; the modulo bias is irrelevant at these widths and keeps it exact.
  int64_t Between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool PerMille(int chance) { return static_cast<int>(Next() % 1000) < chance; }

 private:
  uint64_t state_;
};

// Index of the bucket `draw` (0 ≤ draw < total) falls into.
std::size_t PickCumulative(const std::vector<uint64_t>& cumulative, uint64_t draw) {
  return static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), draw) -
                                  cumulative.begin());
}

template <std::size_t N>
std::size_t PickWeighted(const std::array<int, N>& weights, uint64_t draw) {
  int total = 0;
  for (int w : weights) total += w;
  int target = static_cast<int>(draw % static_cast<uint64_t>(total));
  for (std::size_t i = 0; i < N; ++i) {
    if (target < weights[i]) return i;
    target -= weights[i];
  }
  return N - 1;
}

// Howard Hinnant's civil-calendar algorithms (days since 1970-01-01).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  int year, month, day;
};

Civil CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {static_cast<int>(yoe + era * 400 + (m <= 2)), m, d};
}

const int64_t kFirstDay = DaysFromCivil(kFirstYear, 1, 1);

int IsoWeekday(int64_t days) { return static_cast<int>(((days % 7) + 7 + 3) % 7) + 1; }

std::string FormatDate(int64_t days) {
  Civil c = CivilFromDays(days);
  char out[16];
  std::snprintf(out, sizeof out, "%04d-%02d-%02d", c.year, c.month, c.day);
  return out;
}

std::string FormatTimestamp(int64_t epoch_seconds) {
  int64_t days = epoch_seconds / 86400;
  int64_t rest = epoch_seconds % 86400;
  char out[16];
  std::snprintf(out, sizeof out, " %02d:%02d:%02d", static_cast<int>(rest / 3600),
                static_cast<int>(rest / 60 % 60), static_cast<int>(rest % 60));
  return FormatDate(days) + out;
}

// An integer in units of 10^-scale as exact decimal text ("-0.5", "12.50").
std::string FormatScaled(int64_t value, int scale) {
  int64_t factor = 1;
  for (int i = 0; i < scale; ++i) factor *= 10;
  std::string sign = value < 0 ? "-" : "";
  int64_t magnitude = value < 0 ? -value : value;
  std::string fraction = std::to_string(magnitude % factor);
  fraction.insert(0, static_cast<std::size_t>(scale) - fraction.size(), '0');
  return sign + std::to_string(magnitude / factor) + (scale > 0 ? "." + fraction : "");
}

// Stratified over the demand curve: draw i of n lands in the i-th of n equal slices of
// [0, total), so trip ids follow time. Exact integer slice bounds (n ≤ 1e9 keeps k·(total % n)
// far below 2^64).
uint64_t StratifiedDraw(uint64_t total, uint64_t n, uint64_t i, SplitMix& rng) {
  auto slice_start = [&](uint64_t k) { return k * (total / n) + k * (total % n) / n; };
  uint64_t width = slice_start(i + 1) - slice_start(i);
  return slice_start(i) + (width ? rng.Next() % width : 0);
}

uint64_t IntSqrt(uint64_t n) {
  if (n < 2) return n;
  uint64_t x = n, y = (x + 1) / 2;
  while (y < x) {
    x = y;
    y = (x + n / x) / 2;
  }
  return x;
}

// Road distance between two zone centres: the straight line (47°N: 111.32 km per degree of
// latitude, 75.92 per degree of longitude) times a detour factor, plus the last stretch.
int64_t RouteMetres(int dlat_micro, int dlon_micro, SplitMix& rng) {
  int64_t dy = static_cast<int64_t>(dlat_micro) * 11132 / 100000;
  int64_t dx = static_cast<int64_t>(dlon_micro) * 7592 / 100000;
  int64_t straight = static_cast<int64_t>(IntSqrt(static_cast<uint64_t>(dx * dx + dy * dy)));
  // Separate statements: the order of two draws inside one expression is unspecified in C++.
  int64_t detour_percent = rng.Between(120, 150);
  int64_t last_stretch = rng.Between(0, 800);
  return straight * detour_percent / 100 + last_stretch;
}

bool IsHoliday(int64_t days) {
  // Public holidays of the demo city (fixed and Easter-based, 2024 and 2025).
  static const std::array<std::array<int, 3>, 18> kHolidays = {{
      {2024, 1, 1},
      {2024, 3, 29},
      {2024, 4, 1},
      {2024, 5, 1},
      {2024, 5, 9},
      {2024, 5, 20},
      {2024, 8, 1},
      {2024, 12, 25},
      {2024, 12, 26},
      {2025, 1, 1},
      {2025, 4, 18},
      {2025, 4, 21},
      {2025, 5, 1},
      {2025, 5, 29},
      {2025, 6, 9},
      {2025, 8, 1},
      {2025, 12, 25},
      {2025, 12, 26},
  }};
  for (const auto& h : kHolidays) {
    if (DaysFromCivil(h[0], h[1], h[2]) == days) return true;
  }
  return false;
}

constexpr std::array<const char*, 6> kBoroughs = {"Old Town", "Riverside", "Northgate",
                                                  "Harbour",  "Eastfield", "Westbrook"};
constexpr std::array<const char*, 10> kZoneStems = {"Centre", "Station", "Market",  "Park",
                                                    "Bridge", "Hill",    "Gardens", "Square",
                                                    "Mill",   "Heights"};
// Borough centres as micro-degree offsets from the city centre, and their pull on demand.
constexpr std::array<std::array<int, 3>, 6> kBoroughGeo = {{
    {0, 0, 100},
    {-14000, -22000, 70},
    {26000, 5000, 45},
    {-8000, 30000, 55},
    {10000, 42000, 35},
    {6000, -40000, 40},
}};
constexpr int kCityLatMicro = 47376900;
constexpr int kCityLonMicro = 8541700;

// Tenths of °C: monthly means and the diurnal swing by hour.
constexpr std::array<int, 12> kMonthTemp = {-5, 5, 45, 90, 135, 170, 190, 185, 145, 95, 45, 5};
constexpr std::array<int, 24> kDiurnal = {-30, -35, -40, -42, -45, -40, -30, -15, 0, 15,  30,  40,
                                          48,  52,  55,  52,  45,  35,  20,  10,  0, -10, -18, -25};
constexpr std::array<int, 12> kRainyDayPerMille = {350, 320, 350, 380, 400, 380,
                                                   330, 350, 330, 360, 380, 380};
// Relative trip demand by hour of day, and by month.
constexpr std::array<int, 24> kWeekdayHours = {12, 7,  5,  4,  5,  12, 35, 70, 85, 60, 50, 52,
                                               58, 55, 52, 58, 70, 90, 85, 62, 48, 40, 30, 20};
constexpr std::array<int, 24> kWeekendHours = {35, 30, 22, 12, 7,  6,  9,  15, 25, 38, 48, 55,
                                               60, 60, 58, 56, 55, 58, 60, 58, 55, 52, 48, 42};
constexpr std::array<int, 12> kMonthDemand = {90, 92, 97,  100, 104, 102,
                                              95, 92, 104, 106, 102, 110};

constexpr std::array<const char*, 4> kPayments = {"card", "cash", "app", "voucher"};
constexpr std::array<int, 4> kPaymentWeights = {64, 24, 11, 1};
constexpr std::array<const char*, 3> kVendors = {"CityCab", "GreenRide", "MetroTaxi"};
constexpr std::array<int, 3> kVendorWeights = {45, 35, 20};
constexpr std::array<int, 6> kPassengerWeights = {70, 17, 6, 4, 2, 1};

DemoColumn Col(std::string name, DemoColumnKind kind, int precision = 0, int scale = 0,
               bool nullable = false) {
  return DemoColumn{std::move(name), kind, precision, scale, nullable};
}

std::vector<DemoTableDef> BuildTableDefs() {
  using K = DemoColumnKind;
  return {
      {"zones",
       {Col("id", K::kInteger), Col("name", K::kText, 64), Col("borough", K::kText, 32),
        Col("lat", K::kDecimal, 9, 6), Col("lon", K::kDecimal, 9, 6),
        Col("area_km2", K::kDecimal, 6, 2)},
       "id",
       {},
       {}},
      {"calendar",
       {Col("date", K::kDate), Col("year", K::kSmallInt), Col("month", K::kSmallInt),
        Col("quarter", K::kSmallInt), Col("weekday", K::kSmallInt), Col("is_weekend", K::kBoolean),
        Col("is_holiday", K::kBoolean)},
       "date",
       {},
       {}},
      {"weather",
       {Col("ts", K::kTimestamp), Col("temp_c", K::kDecimal, 4, 1),
        Col("precip_mm", K::kDecimal, 5, 1, true), Col("conditions", K::kText, 16)},
       "ts",
       {},
       {}},
      {"trips",
       {Col("id", K::kBigInt), Col("pickup_zone_id", K::kInteger),
        Col("dropoff_zone_id", K::kInteger), Col("pickup_at", K::kTimestamp),
        Col("dropoff_at", K::kTimestamp), Col("passenger_count", K::kSmallInt, 0, 0, true),
        Col("distance_km", K::kDecimal, 8, 2), Col("fare", K::kDecimal, 10, 2),
        Col("tip", K::kDecimal, 10, 2, true), Col("payment_type", K::kText, 16),
        Col("vendor", K::kText, 32)},
       "id",
       {{"pickup_zone_id", "zones"}, {"dropoff_zone_id", "zones"}},
       {"pickup_at", "pickup_zone_id", "dropoff_zone_id"}},
  };
}

void Fnv(uint64_t& hash, std::string_view text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
}

}  // namespace

std::string DemoColumnType(const DemoColumn& column, Dialect dialect) {
  switch (column.kind) {
    case DemoColumnKind::kInteger:
      return "INTEGER";
    case DemoColumnKind::kSmallInt:
      return "SMALLINT";
    case DemoColumnKind::kBigInt:
      return "BIGINT";
    case DemoColumnKind::kDecimal:
      return "DECIMAL(" + std::to_string(column.precision) + "," + std::to_string(column.scale) +
             ")";
    case DemoColumnKind::kText:
      // DuckDB ignores a VARCHAR length; the lake's files carry none.
      if (dialect == Dialect::kDuckdb) return "VARCHAR";
      return "VARCHAR(" + std::to_string(column.precision) + ")";
    case DemoColumnKind::kDate:
      return "DATE";
    case DemoColumnKind::kTimestamp:
      // MySQL TIMESTAMP converts through the session zone and stops in 2038; DATETIME is plain.
      return dialect == Dialect::kMysql ? "DATETIME" : "TIMESTAMP";
    case DemoColumnKind::kBoolean:
      return "BOOLEAN";
  }
  return "TEXT";
}

std::string DemoTarget::Quote(std::string_view identifier) const {
  char q = dialect == Dialect::kMysql ? '`' : '"';
  std::string out(1, q);
  for (char c : identifier) {
    out += c;
    if (c == q) out += c;
  }
  return out + q;
}

std::string DemoTarget::Table(std::string_view logical) const {
  std::string name = Quote(table_prefix + std::string(logical));
  return schema.empty() ? name : Quote(schema) + "." + name;
}

DemoDataset::DemoDataset(int64_t trip_count, uint64_t seed) : trip_count_(trip_count), seed_(seed) {
  if (trip_count < 0 || trip_count > 1'000'000'000) {
    throw std::invalid_argument("trip count must be between 0 and 1000000000");
  }
  BuildZones();
  BuildWeather();
  BuildDemand();
}

const std::vector<DemoTableDef>& DemoDataset::Tables() {
  static const std::vector<DemoTableDef> tables = BuildTableDefs();
  return tables;
}

const DemoTableDef& DemoDataset::Table(std::string_view logical) {
  for (const auto& table : Tables()) {
    if (table.name == logical) return table;
  }
  throw std::invalid_argument("unknown demo table " + std::string(logical));
}

int64_t DemoDataset::RowCount(std::string_view logical) const {
  if (logical == "zones") return kZoneCount;
  if (logical == "calendar") return kCalendarDays;
  if (logical == "weather") return static_cast<int64_t>(kCalendarDays) * 24;
  if (logical == "trips") return trip_count_;
  throw std::invalid_argument("unknown demo table " + std::string(logical));
}

std::string DemoDataset::CreateTableSql(const DemoTableDef& table, const DemoTarget& target) {
  std::string sql = "CREATE TABLE " + target.Table(table.name) + " (";
  for (const auto& column : table.columns) {
    sql += target.Quote(column.name) + " " + DemoColumnType(column, target.dialect) +
           (column.nullable ? "" : " NOT NULL") + ", ";
  }
  sql += "PRIMARY KEY (" + target.Quote(table.primary_key) + ")";
  if (target.dialect == Dialect::kSqlite) {
    for (const auto& fk : table.foreign_keys) {
      sql += ", FOREIGN KEY (" + target.Quote(fk.column) + ") REFERENCES " +
             target.Table(fk.references_table) + " (" + target.Quote("id") + ")";
    }
  }
  return sql + ")";
}

std::vector<std::string> DemoDataset::ForeignKeySql(const DemoTableDef& table,
                                                    const DemoTarget& target) {
  std::vector<std::string> out;
  if (target.dialect == Dialect::kSqlite) return out;
  for (const auto& fk : table.foreign_keys) {
    // MySQL constraint names are per database: keep the prefix.
    std::string name = target.Quote(target.table_prefix + table.name + "_" + fk.column + "_fkey");
    out.push_back("ALTER TABLE " + target.Table(table.name) + " ADD CONSTRAINT " + name +
                  " FOREIGN KEY (" + target.Quote(fk.column) + ") REFERENCES " +
                  target.Table(fk.references_table) + " (" + target.Quote("id") + ")");
  }
  return out;
}

std::vector<std::string> DemoDataset::CreateIndexSql(const DemoTableDef& table,
                                                     const DemoTarget& target) {
  std::vector<std::string> out;
  for (const auto& column : table.indexed_columns) {
    // Index names are per schema on PostgreSQL and per database on SQLite: keep the prefix.
    std::string index = target.Quote(target.table_prefix + table.name + "_" + column + "_idx");
    if (target.dialect == Dialect::kSqlite && !target.schema.empty()) {
      index = target.Quote(target.schema) + "." + index;
    }
    out.push_back("CREATE INDEX " + index + " ON " + target.Table(table.name) + " (" +
                  target.Quote(column) + ")");
  }
  return out;
}

std::string DemoDataset::Literal(const DemoColumn& column, const std::optional<std::string>& value,
                                 Dialect dialect) {
  if (!value) return "NULL";
  switch (column.kind) {
    case DemoColumnKind::kBoolean:
      if (dialect == Dialect::kSqlite) return *value == "true" ? "1" : "0";
      return *value == "true" ? "TRUE" : "FALSE";
    case DemoColumnKind::kText:
    case DemoColumnKind::kDate:
    case DemoColumnKind::kTimestamp: {
      std::string out = "'";
      for (char c : *value) {
        if (c == '\'' || (c == '\\' && dialect == Dialect::kMysql)) out += c;
        out += c;
      }
      return out + "'";
    }
    default:
      return *value;
  }
}

void DemoDataset::BuildZones() {
  zones_.clear();
  zone_cumulative_.clear();
  uint64_t total = 0;
  for (int z = 0; z < kZoneCount; ++z) {
    SplitMix rng(seed_, kStreamZones, static_cast<uint64_t>(z));
    Zone zone;
    zone.borough = z / 10;
    const auto& geo = kBoroughGeo[static_cast<std::size_t>(zone.borough)];
    zone.lat_micro = kCityLatMicro + geo[0] + static_cast<int>(rng.Between(-9000, 9000));
    zone.lon_micro = kCityLonMicro + geo[1] + static_cast<int>(rng.Between(-13000, 13000));
    zone.area_hundredths = static_cast<int>(rng.Between(80, 600));
    // Stations (stem 1) draw twice the traffic of a comparable zone.
    zone.popularity = static_cast<uint64_t>(geo[2] * rng.Between(40, 160) * (z % 10 == 1 ? 2 : 1));
    total += zone.popularity;
    zones_.push_back(zone);
    zone_cumulative_.push_back(total);
  }
}

void DemoDataset::BuildWeather() {
  weather_.clear();
  for (int day = 0; day < kCalendarDays; ++day) {
    SplitMix rng(seed_, kStreamWeather, static_cast<uint64_t>(day));
    int month = CivilFromDays(kFirstDay + day).month;
    int anomaly = 0;  // a day warmer or colder than its month; one draw per statement
    for (int k = 0; k < 3; ++k) anomaly += static_cast<int>(rng.Between(-30, 30));
    bool rainy_day = rng.PerMille(kRainyDayPerMille[static_cast<std::size_t>(month - 1)]);
    bool raining = false;
    for (int hour = 0; hour < 24; ++hour) {
      HourWeather w;
      w.temp_tenths = kMonthTemp[static_cast<std::size_t>(month - 1)] +
                      kDiurnal[static_cast<std::size_t>(hour)] + anomaly +
                      static_cast<int>(rng.Between(-8, 8));
      raining = rainy_day && rng.PerMille(raining ? 650 : 300);
      w.precip_tenths =
          raining ? static_cast<int>(rng.PerMille(100) ? rng.Between(25, 120) : rng.Between(1, 25))
                  : 0;
      bool winter_morning = hour >= 5 && hour <= 8 && (month <= 2 || month >= 10);
      if (raining) {
        w.condition = w.temp_tenths <= 0 ? "snow" : "rain";
      } else if (rng.PerMille(rainy_day ? 700 : 300)) {
        w.condition = "cloudy";
      } else {
        w.condition = winter_morning && rng.PerMille(150) ? "fog" : "clear";
      }
      if (rng.PerMille(3)) w.precip_tenths = -1;  // the rain gauge missed this hour
      weather_.push_back(w);
    }
  }
}

void DemoDataset::BuildDemand() {
  demand_cumulative_.clear();
  uint64_t total = 0;
  for (int day = 0; day < kCalendarDays; ++day) {
    int64_t days = kFirstDay + day;
    bool holiday = IsHoliday(days);
    bool relaxed = IsoWeekday(days) >= 6 || holiday;
    uint64_t month_factor = static_cast<uint64_t>(
        kMonthDemand[static_cast<std::size_t>(CivilFromDays(days).month - 1)]);
    uint64_t growth = 1000 + static_cast<uint64_t>(day) * 100 / kCalendarDays;  // +10 % over 2 yrs
    for (int hour = 0; hour < 24; ++hour) {
      const HourWeather& w = weather_[static_cast<std::size_t>(day * 24 + hour)];
      uint64_t profile =
          static_cast<uint64_t>(relaxed ? kWeekendHours[static_cast<std::size_t>(hour)]
                                        : kWeekdayHours[static_cast<std::size_t>(hour)]);
      uint64_t wet =
          std::string_view(w.condition) == "rain" || std::string_view(w.condition) == "snow" ? 125
                                                                                             : 100;
      total += month_factor * profile * growth * wet / 100 * (holiday ? 80 : 100) / 100;
      demand_cumulative_.push_back(total);
    }
  }
}

DemoRow DemoDataset::ZoneRow(int index) const {
  const Zone& z = zones_[static_cast<std::size_t>(index)];
  std::string name = std::string(kBoroughs[static_cast<std::size_t>(z.borough)]) + " " +
                     kZoneStems[static_cast<std::size_t>(index % 10)];
  return {std::to_string(index + 1),
          name,
          kBoroughs[static_cast<std::size_t>(z.borough)],
          FormatScaled(z.lat_micro, 6),
          FormatScaled(z.lon_micro, 6),
          FormatScaled(z.area_hundredths, 2)};
}

DemoRow DemoDataset::CalendarRow(int day) const {
  int64_t days = kFirstDay + day;
  Civil c = CivilFromDays(days);
  int weekday = IsoWeekday(days);
  return {FormatDate(days),
          std::to_string(c.year),
          std::to_string(c.month),
          std::to_string((c.month - 1) / 3 + 1),
          std::to_string(weekday),
          weekday >= 6 ? "true" : "false",
          IsHoliday(days) ? "true" : "false"};
}

DemoRow DemoDataset::WeatherRow(int hour) const {
  const HourWeather& w = weather_[static_cast<std::size_t>(hour)];
  std::optional<std::string> precip;
  if (w.precip_tenths >= 0) precip = FormatScaled(w.precip_tenths, 1);
  return {FormatTimestamp(kFirstDay * 86400 + static_cast<int64_t>(hour) * 3600),
          FormatScaled(w.temp_tenths, 1), precip, std::string(w.condition)};
}

int DemoDataset::PickZone(uint64_t draw) const {
  return static_cast<int>(PickCumulative(zone_cumulative_, draw % zone_cumulative_.back()));
}

// Short hops stay in the zone, many trips stay in the borough, the rest follow popularity.
int DemoDataset::PickDropoff(int pickup, uint64_t state) const {
  SplitMix rng(state, 0, 0);
  if (rng.PerMille(180)) return pickup;
  if (rng.PerMille(400)) return (pickup / 10) * 10 + static_cast<int>(rng.Between(0, 9));
  return PickZone(rng.Next());
}

DemoRow DemoDataset::TripRow(int64_t index) const {
  if (index < 0 || index >= trip_count_) throw std::out_of_range("trip index out of range");
  SplitMix rng(seed_, kStreamTrips, static_cast<uint64_t>(index));
  uint64_t draw = StratifiedDraw(demand_cumulative_.back(), static_cast<uint64_t>(trip_count_),
                                 static_cast<uint64_t>(index), rng);
  int hour_index = static_cast<int>(PickCumulative(demand_cumulative_, draw));
  int hour_of_day = hour_index % 24;
  int64_t pickup =
      (kFirstDay * 86400) + static_cast<int64_t>(hour_index) * 3600 + rng.Between(0, 3599);

  int from = PickZone(rng.Next());
  int to = PickDropoff(from, rng.Next());
  int64_t distance_m = rng.Between(400, 3000);
  if (from != to) {
    const Zone& a = zones_[static_cast<std::size_t>(from)];
    const Zone& b = zones_[static_cast<std::size_t>(to)];
    distance_m = RouteMetres(b.lat_micro - a.lat_micro, b.lon_micro - a.lon_micro, rng);
  }
  bool night = hour_of_day >= 22 || hour_of_day < 6;
  bool rush = (hour_of_day >= 7 && hour_of_day <= 9) || (hour_of_day >= 16 && hour_of_day <= 19);
  int64_t speed_kmh = (night ? 32 : rush ? 16 : 22) + rng.Between(-4, 4);
  int64_t duration_s = distance_m * 3600 / (speed_kmh * 1000) + rng.Between(60, 300);
  int64_t fare = 350 + distance_m * 170 / 1000 + duration_s * 45 / 60 + (night ? 150 : 0);

  std::size_t payment = PickWeighted(kPaymentWeights, rng.Next());
  std::optional<std::string> tip;  // cash tips are never recorded
  if (payment != 1) {
    bool tipped = payment != 3 && rng.PerMille(720);
    tip = FormatScaled(tipped ? fare * rng.Between(8, 25) / 100 : 0, 2);
  }
  std::size_t vendor = PickWeighted(kVendorWeights, rng.Next());
  std::optional<std::string> passengers;
  // MetroTaxi's older meters often leave the passenger count empty.
  if (!(vendor == 2 && rng.PerMille(80)) && !rng.PerMille(15)) {
    passengers = std::to_string(PickWeighted(kPassengerWeights, rng.Next()) + 1);
  }
  return {std::to_string(index + 1),
          std::to_string(from + 1),
          std::to_string(to + 1),
          FormatTimestamp(pickup),
          FormatTimestamp(pickup + duration_s),
          passengers,
          FormatScaled(distance_m / 10, 2),
          FormatScaled(fare, 2),
          tip,
          kPayments[payment],
          kVendors[vendor]};
}

void DemoDataset::ForEachRow(std::string_view logical,
                             const std::function<bool(const DemoRow&)>& on_row) const {
  int64_t count = RowCount(logical);
  for (int64_t i = 0; i < count; ++i) {
    if (!on_row(Row(logical, i))) return;
  }
}

DemoRow DemoDataset::Row(std::string_view logical, int64_t index) const {
  if (logical == "zones") return ZoneRow(static_cast<int>(index));
  if (logical == "calendar") return CalendarRow(static_cast<int>(index));
  if (logical == "weather") return WeatherRow(static_cast<int>(index));
  if (logical == "trips") return TripRow(index);
  throw std::invalid_argument("unknown demo table " + std::string(logical));
}

std::string DemoDataset::Checksum() const {
  uint64_t hash = 0xCBF29CE484222325ULL;
  for (const auto& table : Tables()) {
    Fnv(hash, table.name + "\n");
    ForEachRow(table.name, [&](const DemoRow& row) {
      for (const auto& cell : row) {
        Fnv(hash, cell ? *cell : std::string("\\N"));
        Fnv(hash, "\x1f");
      }
      Fnv(hash, "\n");
      return true;
    });
  }
  char out[24];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
  return out;
}

}  // namespace dp
