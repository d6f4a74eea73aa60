#pragma once
// The one place that knows every driver: which Connector and which TypeMapper serve a
// dialect. The base files (connector, type_mapper) stay free of driver headers, so adding a
// driver touches its own folder and this factory, nothing else.
#include <memory>

#include "datapipelines/connectors/dialect.hpp"

namespace dp {

class Connector;
class TypeMapper;
struct ConnectorConfig;

// POSTGRES, MYSQL, SQLITE, DUCKDB and LAKE; any other enum value is refused with
// datasource.driver_not_loaded at registration rather than at first use.
std::unique_ptr<Connector> MakeConnector(const ConnectorConfig& config);

// The canonical-type mapping of a dialect's columns; dialects without a native driver map
// through the fallback (every unknown type reads as text, with a warning).
const TypeMapper& TypeMapperFor(Dialect dialect);

}  // namespace dp
