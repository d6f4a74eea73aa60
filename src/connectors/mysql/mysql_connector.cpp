#include "mysql_connector.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "mysql_connection.hpp"

namespace dp {

MysqlConnector::MysqlConnector(ConnectorConfig config) : Connector(std::move(config)) {
  InitPool();
}

std::unique_ptr<Connection> MysqlConnector::Open() {
  return std::make_unique<MysqlConnection>(config());
}

std::string MysqlConnector::QuoteIdentifier(std::string_view name) const {
  if (name.empty() || name.find('\0') != std::string_view::npos) {
    throw DomainError(errc::kRequestInvalid, name.empty()
                                                 ? "an identifier may not be blank"
                                                 : "an identifier may not contain a NUL character");
  }
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  out.push_back('`');
  return out;
}

}  // namespace dp
