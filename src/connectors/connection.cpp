#include "datapipelines/connectors/connection.hpp"

namespace dp {

int64_t Connection::Execute(std::string_view sql, const BindMap& binds) {
  QueryResult result = Query(sql, binds, QueryOptions{}, [](const RowView&) { return true; });
  return result.affected_rows;
}

bool Connection::CopyIn(std::string_view, const std::vector<std::string>&,
                        const std::function<bool(std::string&)>&) {
  return false;
}

int Connection::EffectiveTimeoutMs(const QueryOptions& options) const {
  if (options.timeout_ms < 0) return 0;
  return options.timeout_ms > 0 ? options.timeout_ms : default_timeout_ms_;
}

}  // namespace dp
