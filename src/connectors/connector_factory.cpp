#include "datapipelines/connectors/connector_factory.hpp"

#include "connectors/duckdb/duckdb_connector.hpp"
#include "connectors/mysql/mysql_connector.hpp"
#include "connectors/postgres/postgres_connector.hpp"
#include "connectors/sqlite/sqlite_connector.hpp"
#include "datapipelines/connectors/connector.hpp"
#include "datapipelines/connectors/duckdb/duckdb_type_mapper.hpp"
#include "datapipelines/connectors/fallback_type_mapper.hpp"
#include "datapipelines/connectors/mysql/mysql_type_mapper.hpp"
#include "datapipelines/connectors/postgres/postgres_type_mapper.hpp"
#include "datapipelines/connectors/sqlite/sqlite_type_mapper.hpp"
#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {

std::unique_ptr<Connector> MakeConnector(const ConnectorConfig& config) {
  switch (config.dialect) {
    case Dialect::kPostgres:
      return std::make_unique<PostgresConnector>(config);
    case Dialect::kMysql:
      return std::make_unique<MysqlConnector>(config);
    case Dialect::kSqlite:
      return std::make_unique<SqliteConnector>(config);
    case Dialect::kDuckdb:
    case Dialect::kLake:
      return std::make_unique<DuckdbConnector>(config);
    default:
      break;
  }
  std::string name(ToString(config.dialect));
  throw DomainError(
      errc::kDatasourceDriverNotLoaded,
      "dialect " + name + " is in the spec's enum but this build has no driver for it",
      Json{{"dialect", name}, {"supported", DialectNames(/*served_only=*/true)}});
}

const TypeMapper& TypeMapperFor(Dialect dialect) {
  static const PostgresTypeMapper kPostgres;
  static const MysqlTypeMapper kMysql;
  static const SqliteTypeMapper kSqlite;
  static const DuckdbTypeMapper kDuckdb;
  static const FallbackTypeMapper kFallback;
  switch (dialect) {
    case Dialect::kPostgres:
      return kPostgres;
    case Dialect::kMysql:
      return kMysql;
    case Dialect::kSqlite:
      return kSqlite;
    case Dialect::kDuckdb:
    case Dialect::kLake:
      return kDuckdb;  // §5.8: LAKE's engine is DuckDB, one table
    default:
      // Oracle/MSSQL/H2 have no native driver in this build (§11.2 else path).
      return kFallback;
  }
}

}  // namespace dp
