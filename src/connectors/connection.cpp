#include "datapipelines/connectors/connection.hpp"

namespace dp {

int64_t Connection::Execute(std::string_view sql, const BindMap& binds) {
  QueryResult result = Query(sql, binds, QueryOptions{}, [](const RowView&) { return true; });
  return result.affected_rows;
}

int Connection::EffectiveTimeoutMs(const QueryOptions& options) const {
  if (options.timeout_ms < 0) return 0;
  return options.timeout_ms > 0 ? options.timeout_ms : default_timeout_ms_;
}

}  // namespace dp
