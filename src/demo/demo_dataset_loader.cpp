#include "datapipelines/demo/demo_dataset_loader.hpp"

#include <chrono>

#include "datapipelines/connectors/wire/copy_text.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/util/clock.hpp"

namespace dp {
namespace {

constexpr const char* kInfoTable = "demo_dataset_info";
// Bytes handed to the driver per CopyIn fill: large enough to amortise the call, small enough
// to stay in cache.
constexpr std::size_t kCopyChunkBytes = 256 * 1024;

int64_t ElapsedMs(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               since)
      .count();
}

}  // namespace

Json DemoLoadReport::ToJson() const {
  Json tables = Json::object();
  for (const auto& [name, count] : rows) tables[name] = count;
  return Json{{"skipped", skipped}, {"version", version},        {"seed", seed},
              {"trips", trips},     {"rows", std::move(tables)}, {"elapsed_ms", elapsed_ms}};
}

DemoDatasetLoader::DemoDatasetLoader(Connector& connector, DemoLoadOptions options)
    : connector_(connector), options_(std::move(options)) {
  target_.dialect = connector.dialect();
  target_.schema = options_.schema;
  target_.table_prefix = options_.table_prefix;
  if (options_.batch_rows < 1) options_.batch_rows = 1;
  if (options_.batches_per_commit < 1) options_.batches_per_commit = 1;
}

DemoLoadReport DemoDatasetLoader::Load(const DemoDataset& dataset) {
  const auto started = std::chrono::steady_clock::now();
  std::unique_ptr<Connection> session = connector_.Open();
  if (!target_.schema.empty() && target_.dialect == Dialect::kPostgres) {
    session->Execute("CREATE SCHEMA IF NOT EXISTS " + target_.Quote(target_.schema));
  }
  DemoLoadReport report;
  report.version = DemoDataset::kVersion;
  report.seed = dataset.seed();
  report.trips = dataset.trip_count();
  auto installed = Installed(*session);
  if (!options_.force && installed && installed->version == DemoDataset::kVersion &&
      installed->seed == dataset.seed() && installed->trips == dataset.trip_count()) {
    report.skipped = true;
    report.elapsed_ms = ElapsedMs(started);
    return report;
  }
  DropAll(*session);
  for (const auto& table : DemoDataset::Tables()) {
    session->Execute(DemoDataset::CreateTableSql(table, target_));
    report.rows.emplace_back(table.name, LoadTable(*session, dataset, table));
    for (const auto& sql : DemoDataset::CreateIndexSql(table, target_)) session->Execute(sql);
    for (const auto& sql : DemoDataset::ForeignKeySql(table, target_)) session->Execute(sql);
  }
  Analyze(*session);
  RecordInfo(*session, dataset);
  report.elapsed_ms = ElapsedMs(started);
  return report;
}

std::optional<DemoInstalledInfo> DemoDatasetLoader::Installed(Connection& session) const {
  std::optional<DemoInstalledInfo> info;
  try {
    session.Query("SELECT version, seed, trips FROM " + target_.Table(kInfoTable), {}, {},
                  [&](const RowView& row) {
                    if (row.is_null(0) || row.is_null(1) || row.is_null(2)) return true;
                    info = DemoInstalledInfo{std::stoi(std::string(*row.text(0))),
                                             std::stoull(std::string(*row.text(1))),
                                             std::stoll(std::string(*row.text(2)))};
                    return true;
                  });
  } catch (const DomainError&) {
    return std::nullopt;  // no info table: nothing (complete) is installed here
  }
  return info;
}

// Children first, so foreign keys never block a drop.
void DemoDatasetLoader::DropAll(Connection& session) const {
  session.Execute("DROP TABLE IF EXISTS " + target_.Table(kInfoTable));
  const auto& tables = DemoDataset::Tables();
  for (auto it = tables.rbegin(); it != tables.rend(); ++it) {
    session.Execute("DROP TABLE IF EXISTS " + target_.Table(it->name));
  }
}

void DemoDatasetLoader::Begin(Connection& session) const {
  session.Execute(target_.dialect == Dialect::kMysql ? "START TRANSACTION" : "BEGIN");
}

int64_t DemoDatasetLoader::LoadTable(Connection& session, const DemoDataset& dataset,
                                     const DemoTableDef& table) {
  if (options_.bulk_copy) {
    if (auto copied = CopyTable(session, dataset, table)) {
      if (options_.progress) options_.progress(table.name, *copied);
      return *copied;
    }
  }
  return InsertTable(session, dataset, table);
}

// One COPY per table: the server skips SQL parsing entirely, which is what INSERT batches
// spend most of their time on.
std::optional<int64_t> DemoDatasetLoader::CopyTable(Connection& session, const DemoDataset& dataset,
                                                    const DemoTableDef& table) const {
  std::vector<std::string> columns;
  for (const auto& column : table.columns) columns.push_back(column.name);
  const int64_t count = dataset.RowCount(table.name);
  int64_t next = 0;
  bool supported = session.CopyIn(target_.Table(table.name), columns, [&](std::string& buffer) {
    while (next < count && buffer.size() < kCopyChunkBytes) {
      copy_text::AppendRow(buffer, dataset.Row(table.name, next++));
    }
    return next < count;
  });
  if (!supported) return std::nullopt;
  return count;
}

int64_t DemoDatasetLoader::InsertTable(Connection& session, const DemoDataset& dataset,
                                       const DemoTableDef& table) {
  std::string head = "INSERT INTO " + target_.Table(table.name) + " (";
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    head += (i ? ", " : "") + target_.Quote(table.columns[i].name);
  }
  head += ") VALUES ";
  std::string values;
  int pending = 0, batches = 0;
  int64_t written = 0, reported = 0;
  Begin(session);
  try {
    dataset.ForEachRow(table.name, [&](const DemoRow& row) {
      values += pending ? ",(" : "(";
      for (std::size_t i = 0; i < row.size(); ++i) {
        if (i) values += ',';
        values += DemoDataset::Literal(table.columns[i], row[i], target_.dialect);
      }
      values += ')';
      ++written;
      if (++pending < options_.batch_rows) return true;
      Flush(session, head, values, pending);
      if (++batches % options_.batches_per_commit == 0) {
        session.Execute("COMMIT");
        if (options_.progress) options_.progress(table.name, reported = written);
        Begin(session);
      }
      return true;
    });
    Flush(session, head, values, pending);
    session.Execute("COMMIT");
  } catch (...) {
    try {
      session.Execute("ROLLBACK");
    } catch (...) {
      // The original failure is the one worth reporting.
    }
    throw;
  }
  if (options_.progress && reported != written) options_.progress(table.name, written);
  return written;
}

void DemoDatasetLoader::Flush(Connection& session, const std::string& head, std::string& values,
                              int& pending) const {
  if (pending == 0) return;
  session.Execute(head + values);
  values.clear();
  pending = 0;
}

// Fresh statistics so catalog-based tools (table stats, row estimates) see the real sizes.
void DemoDatasetLoader::Analyze(Connection& session) const {
  for (const auto& table : DemoDataset::Tables()) {
    std::string name = target_.Table(table.name);
    if (target_.dialect == Dialect::kPostgres) session.Execute("ANALYZE " + name);
    if (target_.dialect == Dialect::kMysql) {
      session.Query("ANALYZE TABLE " + name, {}, {}, [](const RowView&) { return true; });
    }
  }
  if (target_.dialect == Dialect::kSqlite) session.Execute("ANALYZE");
}

// Written last: its presence means every table above is complete.
void DemoDatasetLoader::RecordInfo(Connection& session, const DemoDataset& dataset) const {
  std::string name = target_.Table(kInfoTable);
  session.Execute("CREATE TABLE " + name +
                  " (version INTEGER NOT NULL, seed VARCHAR(20) NOT NULL, trips BIGINT NOT NULL, "
                  "loaded_at VARCHAR(32) NOT NULL)");
  session.Execute("INSERT INTO " + name + " (version, seed, trips, loaded_at) VALUES (" +
                  std::to_string(DemoDataset::kVersion) + ", '" + std::to_string(dataset.seed()) +
                  "', " + std::to_string(dataset.trip_count()) + ", '" + FormatIso8601Ms(NowMs()) +
                  "')");
}

}  // namespace dp
