#pragma once
// The slice of DuckDB's C API (duckdb.h, DuckDB 1.5) this project calls, declared here
// because the engine ships as a bare libduckdb.so (scripts/install-duckdb) without headers.
// Layouts and enum values follow DuckDB's C API reference; only src/connectors/ includes this.
// The server does not link the library: it is opened on the first call (DuckDbLibrary), so a
// server that never touches a DUCKDB or LAKE datasource never maps its ~10 MB of relocated pages.
#include <cstddef>
#include <cstdint>

extern "C" {

typedef uint64_t idx_t;

typedef enum { DuckDBSuccess = 0, DuckDBError = 1 } duckdb_state;

typedef enum {
  DUCKDB_TYPE_INVALID = 0,
  DUCKDB_TYPE_BOOLEAN = 1,
  DUCKDB_TYPE_TINYINT = 2,
  DUCKDB_TYPE_SMALLINT = 3,
  DUCKDB_TYPE_INTEGER = 4,
  DUCKDB_TYPE_BIGINT = 5,
  DUCKDB_TYPE_UTINYINT = 6,
  DUCKDB_TYPE_USMALLINT = 7,
  DUCKDB_TYPE_UINTEGER = 8,
  DUCKDB_TYPE_UBIGINT = 9,
  DUCKDB_TYPE_FLOAT = 10,
  DUCKDB_TYPE_DOUBLE = 11,
  DUCKDB_TYPE_TIMESTAMP = 12,
  DUCKDB_TYPE_DATE = 13,
  DUCKDB_TYPE_TIME = 14,
  DUCKDB_TYPE_INTERVAL = 15,
  DUCKDB_TYPE_HUGEINT = 16,
  DUCKDB_TYPE_VARCHAR = 17,
  DUCKDB_TYPE_BLOB = 18,
  DUCKDB_TYPE_DECIMAL = 19,
  DUCKDB_TYPE_TIMESTAMP_S = 20,
  DUCKDB_TYPE_TIMESTAMP_MS = 21,
  DUCKDB_TYPE_TIMESTAMP_NS = 22,
  DUCKDB_TYPE_ENUM = 23,
  DUCKDB_TYPE_LIST = 24,
  DUCKDB_TYPE_STRUCT = 25,
  DUCKDB_TYPE_MAP = 26,
  DUCKDB_TYPE_UUID = 27,
  DUCKDB_TYPE_UNION = 28,
  DUCKDB_TYPE_BIT = 29,
  DUCKDB_TYPE_TIME_TZ = 30,
  DUCKDB_TYPE_TIMESTAMP_TZ = 31,
  DUCKDB_TYPE_UHUGEINT = 32,
  DUCKDB_TYPE_ARRAY = 33,
  DUCKDB_TYPE_SQLNULL = 36,
} duckdb_type;

typedef enum {
  DUCKDB_STATEMENT_TYPE_INVALID = 0,
  DUCKDB_STATEMENT_TYPE_SELECT = 1,
  DUCKDB_STATEMENT_TYPE_INSERT = 2,
  DUCKDB_STATEMENT_TYPE_UPDATE = 3,
  DUCKDB_STATEMENT_TYPE_EXPLAIN = 4,
  DUCKDB_STATEMENT_TYPE_DELETE = 5,
  DUCKDB_STATEMENT_TYPE_PREPARE = 6,
  DUCKDB_STATEMENT_TYPE_CREATE = 7,
  DUCKDB_STATEMENT_TYPE_EXECUTE = 8,
  DUCKDB_STATEMENT_TYPE_ALTER = 9,
  DUCKDB_STATEMENT_TYPE_TRANSACTION = 10,
  DUCKDB_STATEMENT_TYPE_COPY = 11,
  DUCKDB_STATEMENT_TYPE_ANALYZE = 12,
  DUCKDB_STATEMENT_TYPE_VARIABLE_SET = 13,
  DUCKDB_STATEMENT_TYPE_CREATE_FUNC = 14,
  DUCKDB_STATEMENT_TYPE_DROP = 15,
  DUCKDB_STATEMENT_TYPE_EXPORT = 16,
  DUCKDB_STATEMENT_TYPE_PRAGMA = 17,
  DUCKDB_STATEMENT_TYPE_VACUUM = 18,
  DUCKDB_STATEMENT_TYPE_CALL = 19,
  DUCKDB_STATEMENT_TYPE_SET = 20,
  DUCKDB_STATEMENT_TYPE_LOAD = 21,
  DUCKDB_STATEMENT_TYPE_RELATION = 22,
  DUCKDB_STATEMENT_TYPE_EXTENSION = 23,
  DUCKDB_STATEMENT_TYPE_LOGICAL_PLAN = 24,
  DUCKDB_STATEMENT_TYPE_ATTACH = 25,
  DUCKDB_STATEMENT_TYPE_DETACH = 26,
  DUCKDB_STATEMENT_TYPE_MULTI = 27,
} duckdb_statement_type;

typedef struct _duckdb_database {
  void* internal_ptr;
} * duckdb_database;
typedef struct _duckdb_connection {
  void* internal_ptr;
} * duckdb_connection;
typedef struct _duckdb_config {
  void* internal_ptr;
} * duckdb_config;
typedef struct _duckdb_prepared_statement {
  void* internal_ptr;
} * duckdb_prepared_statement;
typedef struct _duckdb_extracted_statements {
  void* internal_ptr;
} * duckdb_extracted_statements;
typedef struct _duckdb_data_chunk {
  void* internal_ptr;
} * duckdb_data_chunk;
typedef struct _duckdb_vector {
  void* internal_ptr;
} * duckdb_vector;
typedef struct _duckdb_logical_type {
  void* internal_ptr;
} * duckdb_logical_type;
typedef struct _duckdb_appender {
  void* internal_ptr;
} * duckdb_appender;

typedef struct {
  idx_t deprecated_column_count;
  idx_t deprecated_row_count;
  idx_t deprecated_rows_changed;
  void* deprecated_columns;
  char* deprecated_error_message;
  void* internal_data;
} duckdb_result;

// A string in a VARCHAR/BLOB vector: inlined when 12 bytes or fewer.
typedef struct {
  union {
    struct {
      uint32_t length;
      char prefix[4];
      char* ptr;
    } pointer;
    struct {
      uint32_t length;
      char inlined[12];
    } inlined;
  } value;
} duckdb_string_t;

typedef struct {
  uint64_t lower;
  int64_t upper;
} duckdb_hugeint;
typedef struct {
  uint64_t lower;
  uint64_t upper;
} duckdb_uhugeint;
typedef struct {
  int32_t months;
  int32_t days;
  int64_t micros;
} duckdb_interval;

// Every function of the slice, once: X(return type, name, (parameters), (arguments)). The
// declarations below and the loader (duckdb_library.cpp, which defines each one as a call
// through the library it opens on first use) are both made from this list.
#define DP_DUCKDB_FUNCTIONS(X)                                                                     \
  X(const char*, duckdb_library_version, (), ())                                                   \
  X(void, duckdb_free, (void* ptr), (ptr))                                                         \
  X(duckdb_state, duckdb_create_config, (duckdb_config * out_config), (out_config))                \
  X(duckdb_state, duckdb_set_config, (duckdb_config config, const char* name, const char* option), \
    (config, name, option))                                                                        \
  X(void, duckdb_destroy_config, (duckdb_config * config), (config))                               \
  X(duckdb_state, duckdb_open_ext,                                                                 \
    (const char* path, duckdb_database* out_database, duckdb_config config, char** out_error),     \
    (path, out_database, config, out_error))                                                       \
  X(void, duckdb_close, (duckdb_database * database), (database))                                  \
  X(duckdb_state, duckdb_connect, (duckdb_database database, duckdb_connection * out_connection),  \
    (database, out_connection))                                                                    \
  X(void, duckdb_interrupt, (duckdb_connection connection), (connection))                          \
  X(void, duckdb_disconnect, (duckdb_connection * connection), (connection))                       \
  X(duckdb_state, duckdb_query,                                                                    \
    (duckdb_connection connection, const char* query, duckdb_result* out_result),                  \
    (connection, query, out_result))                                                               \
  X(void, duckdb_destroy_result, (duckdb_result * result), (result))                               \
  X(const char*, duckdb_result_error, (duckdb_result * result), (result))                          \
  X(idx_t, duckdb_column_count, (duckdb_result * result), (result))                                \
  X(const char*, duckdb_column_name, (duckdb_result * result, idx_t col), (result, col))           \
  X(duckdb_logical_type, duckdb_column_logical_type, (duckdb_result * result, idx_t col),          \
    (result, col))                                                                                 \
  X(idx_t, duckdb_rows_changed, (duckdb_result * result), (result))                                \
  X(duckdb_data_chunk, duckdb_fetch_chunk, (duckdb_result result), (result))                       \
  X(idx_t, duckdb_extract_statements,                                                              \
    (duckdb_connection connection, const char* query,                                              \
     duckdb_extracted_statements* out_extracted_statements),                                       \
    (connection, query, out_extracted_statements))                                                 \
  X(duckdb_state, duckdb_prepare_extracted_statement,                                              \
    (duckdb_connection connection, duckdb_extracted_statements extracted, idx_t index,             \
     duckdb_prepared_statement * out_prepared),                                                    \
    (connection, extracted, index, out_prepared))                                                  \
  X(const char*, duckdb_extract_statements_error, (duckdb_extracted_statements extracted),         \
    (extracted))                                                                                   \
  X(void, duckdb_destroy_extracted, (duckdb_extracted_statements * extracted), (extracted))        \
  X(duckdb_state, duckdb_prepare,                                                                  \
    (duckdb_connection connection, const char* query, duckdb_prepared_statement* out_prepared),    \
    (connection, query, out_prepared))                                                             \
  X(void, duckdb_destroy_prepare, (duckdb_prepared_statement * prepared), (prepared))              \
  X(const char*, duckdb_prepare_error, (duckdb_prepared_statement prepared), (prepared))           \
  X(idx_t, duckdb_nparams, (duckdb_prepared_statement prepared), (prepared))                       \
  X(duckdb_state, duckdb_bind_boolean,                                                             \
    (duckdb_prepared_statement prepared, idx_t index, bool val), (prepared, index, val))           \
  X(duckdb_state, duckdb_bind_int64,                                                               \
    (duckdb_prepared_statement prepared, idx_t index, int64_t val), (prepared, index, val))        \
  X(duckdb_state, duckdb_bind_double,                                                              \
    (duckdb_prepared_statement prepared, idx_t index, double val), (prepared, index, val))         \
  X(duckdb_state, duckdb_bind_varchar_length,                                                      \
    (duckdb_prepared_statement prepared, idx_t index, const char* val, idx_t length),              \
    (prepared, index, val, length))                                                                \
  X(duckdb_state, duckdb_bind_blob,                                                                \
    (duckdb_prepared_statement prepared, idx_t index, const void* data, idx_t length),             \
    (prepared, index, data, length))                                                               \
  X(duckdb_state, duckdb_bind_null, (duckdb_prepared_statement prepared, idx_t index),             \
    (prepared, index))                                                                             \
  X(duckdb_state, duckdb_execute_prepared_streaming,                                               \
    (duckdb_prepared_statement prepared, duckdb_result * out_result), (prepared, out_result))      \
  X(duckdb_statement_type, duckdb_prepared_statement_type, (duckdb_prepared_statement statement),  \
    (statement))                                                                                   \
  X(idx_t, duckdb_prepared_statement_column_count, (duckdb_prepared_statement prepared),           \
    (prepared))                                                                                    \
  X(const char*, duckdb_prepared_statement_column_name,                                            \
    (duckdb_prepared_statement prepared, idx_t col), (prepared, col))                              \
  X(duckdb_logical_type, duckdb_prepared_statement_column_logical_type,                            \
    (duckdb_prepared_statement prepared, idx_t col), (prepared, col))                              \
  X(idx_t, duckdb_data_chunk_get_size, (duckdb_data_chunk chunk), (chunk))                         \
  X(duckdb_vector, duckdb_data_chunk_get_vector, (duckdb_data_chunk chunk, idx_t col_idx),         \
    (chunk, col_idx))                                                                              \
  X(void, duckdb_destroy_data_chunk, (duckdb_data_chunk * chunk), (chunk))                         \
  X(void*, duckdb_vector_get_data, (duckdb_vector vector), (vector))                               \
  X(uint64_t*, duckdb_vector_get_validity, (duckdb_vector vector), (vector))                       \
  X(duckdb_type, duckdb_get_type_id, (duckdb_logical_type type), (type))                           \
  X(uint8_t, duckdb_decimal_width, (duckdb_logical_type type), (type))                             \
  X(uint8_t, duckdb_decimal_scale, (duckdb_logical_type type), (type))                             \
  X(duckdb_type, duckdb_decimal_internal_type, (duckdb_logical_type type), (type))                 \
  X(duckdb_type, duckdb_enum_internal_type, (duckdb_logical_type type), (type))                    \
  X(char*, duckdb_enum_dictionary_value, (duckdb_logical_type type, idx_t index), (type, index))   \
  X(void, duckdb_destroy_logical_type, (duckdb_logical_type * type), (type))                       \
  /* Materialized-result access (the staging engine's own catalog reads). */                       \
  X(int64_t, duckdb_value_int64, (duckdb_result * result, idx_t col, idx_t row),                   \
    (result, col, row))                                                                            \
  X(idx_t, duckdb_row_count, (duckdb_result * result), (result))                                   \
  /* The appender: rows into one table, cast from text to the column types. */                     \
  X(duckdb_state, duckdb_appender_create,                                                          \
    (duckdb_connection connection, const char* schema, const char* table,                          \
     duckdb_appender* out_appender),                                                               \
    (connection, schema, table, out_appender))                                                     \
  X(const char*, duckdb_appender_error, (duckdb_appender appender), (appender))                    \
  X(duckdb_state, duckdb_appender_flush, (duckdb_appender appender), (appender))                   \
  X(duckdb_state, duckdb_appender_close, (duckdb_appender appender), (appender))                   \
  X(duckdb_state, duckdb_appender_destroy, (duckdb_appender * appender), (appender))               \
  X(duckdb_state, duckdb_appender_end_row, (duckdb_appender appender), (appender))                 \
  X(duckdb_state, duckdb_append_varchar_length,                                                    \
    (duckdb_appender appender, const char* val, idx_t length), (appender, val, length))            \
  X(duckdb_state, duckdb_append_blob, (duckdb_appender appender, const void* data, idx_t length),  \
    (appender, data, length))                                                                      \
  X(duckdb_state, duckdb_append_null, (duckdb_appender appender), (appender))

#define DP_DUCKDB_DECLARE(ret, name, params, args) ret name params;
DP_DUCKDB_FUNCTIONS(DP_DUCKDB_DECLARE)
#undef DP_DUCKDB_DECLARE

}  // extern "C"
