#include "datapipelines/connectors/duckdb/parquet_writer.hpp"

#include <filesystem>

#include "datapipelines/connectors/sql_quoting.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "duckdb_c_api.hpp"

namespace dp {
namespace {

[[noreturn]] void Fail(const std::string& why) {
  throw DomainError(errc::kInternal, "parquet write failed: " + why);
}

}  // namespace

void ParquetWriter::Write(const std::string& select_sql, const std::string& target,
                          const std::optional<std::string>& partition_by,
                          const std::vector<std::string>& readable_directories) {
  duckdb_config settings = nullptr;
  duckdb_create_config(&settings);
  duckdb_set_config(settings, "autoload_known_extensions", "false");
  duckdb_set_config(settings, "autoinstall_known_extensions", "false");
  duckdb_database db = nullptr;
  char* error = nullptr;
  duckdb_state opened = duckdb_open_ext(":memory:", &db, settings, &error);
  duckdb_destroy_config(&settings);
  if (opened != DuckDBSuccess) {
    std::string message = error ? error : "open";
    if (error) duckdb_free(error);
    Fail(message);
  }
  duckdb_connection connection = nullptr;
  duckdb_connect(db, &connection);
  std::filesystem::path out(target);
  std::error_code ec;
  std::filesystem::create_directories(partition_by ? out : out.parent_path(), ec);
  // The engine may touch the target's parent folder and nothing else (plus the inputs).
  std::string allowed = SingleQuoted(out.parent_path().string() + "/");
  for (const auto& dir : readable_directories) allowed += ", " + SingleQuoted(dir + "/");
  std::string copy = "COPY (" + select_sql + ") TO " + SingleQuoted(target) + " (FORMAT parquet";
  if (partition_by) copy += ", PARTITION_BY (" + *partition_by + "), OVERWRITE_OR_IGNORE";
  copy += ")";
  std::string failure;
  for (const std::string& sql : {"SET allowed_directories = [" + allowed + "]",
                                 std::string("SET enable_external_access = false"), copy}) {
    duckdb_result result;
    if (duckdb_query(connection, sql.c_str(), &result) != DuckDBSuccess) {
      const char* text = duckdb_result_error(&result);
      failure = text ? text : "statement failed";
    }
    duckdb_destroy_result(&result);
    if (!failure.empty()) break;
  }
  duckdb_disconnect(&connection);
  duckdb_close(&db);
  if (!failure.empty()) Fail(failure);
}

}  // namespace dp
