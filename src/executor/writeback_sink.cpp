#include "datapipelines/executor/writeback_sink.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/util/ascii.hpp"

namespace dp {
namespace {

// Engine messages for a table that does not exist (PostgreSQL 42P01, MySQL 1146, SQLite).
bool IsMissingTable(const DomainError& error) {
  const Json& d = error.details();
  std::string sqlstate = d.is_object() ? d.value("sqlstate", "") : "";
  if (sqlstate == "42P01" || sqlstate == "42S02") return true;
  std::string message = AsciiLower(d.is_object() ? d.value("driver_message", "") : "");
  return message.find("no such table") != std::string::npos ||
         message.find("doesn't exist") != std::string::npos ||
         (message.find("relation") != std::string::npos &&
          message.find("does not exist") != std::string::npos);
}

}  // namespace

WritebackSink::WritebackSink(std::shared_ptr<Connector> target, std::string datasource,
                             std::string table, std::string mode, CancelToken* cancel)
    : target_(std::move(target)),
      datasource_(std::move(datasource)),
      table_(std::move(table)),
      mode_(std::move(mode)),
      cancel_(cancel) {}

WritebackSink::~WritebackSink() {
  if (!open_) return;
  try {
    lease_->Execute("ROLLBACK");
  } catch (...) {
    // A rollback that fails would only hide the real cause; the session is dropped instead.
    lease_.Discard();
  }
}

void WritebackSink::Begin(const std::vector<ColumnSchema>& columns) {
  try {
    lease_ = target_->Acquire();
    std::string names, values;
    for (size_t i = 0; i < columns.size(); ++i) {
      bind_names_.push_back("c" + std::to_string(i));
      names += (i ? ", " : "") + target_->QuoteIdentifier(columns[i].name);
      values += (i ? ", :" : ":") + bind_names_.back();
    }
    const std::string quoted = target_->QuoteIdentifier(table_);
    insert_sql_ = "INSERT INTO " + quoted + " (" + names + ") VALUES (" + values + ")";
    lease_->Execute("BEGIN");
    open_ = true;
    if (mode_ == "replace") lease_->Execute("DELETE FROM " + quoted);
  } catch (const std::exception& error) {
    Fail(error);
  }
}

void WritebackSink::Append(const RowView& row) {
  BindMap binds;
  for (size_t i = 0; i < row.size(); ++i) {
    binds[bind_names_[i]] = BindValue{row.column(i).mapping.type, row.Wire(i)};
  }
  try {
    QueryOptions options;
    options.cancel = cancel_;
    lease_->Query(insert_sql_, binds, options, [](const RowView&) { return true; });
    ++rows_;
  } catch (const std::exception& error) {
    Fail(error);
  }
}

int64_t WritebackSink::Finish() {
  try {
    lease_->Execute("COMMIT");
    open_ = false;
  } catch (const std::exception& error) {
    Fail(error);
  }
  return rows_;
}

void WritebackSink::Fail(const std::exception& error) {
  const auto* domain = dynamic_cast<const DomainError*>(&error);
  Json details{{"datasource", datasource_}, {"table", table_}, {"rows_written", rows_}};
  if (domain && domain->details().is_object()) details["cause"] = domain->details();
  if (domain && IsMissingTable(*domain)) {
    throw DomainError(errc::kNodeWritebackTargetMissing,
                      "Write-back target table '" + table_ + "' does not exist in '" + datasource_ +
                          "'; create it first (a DDL node before this one).",
                      std::move(details));
  }
  throw DomainError(errc::kNodeWritebackFailed,
                    "Writing back to '" + datasource_ + "'.'" + table_ +
                        "' failed; nothing was committed: " + error.what(),
                    std::move(details));
}

}  // namespace dp
