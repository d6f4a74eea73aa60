#include "datapipelines/connectors/pool/pool_settings.hpp"

#include <set>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp {
namespace {

[[noreturn]] void Invalid(const std::string& key, const std::string& why) {
  throw DomainError(errc::kDatasourcePropertiesInvalid, "properties.hikari." + key + ": " + why,
                    Json{{"key", "hikari." + key}});
}

// Derived from the entity and the dialect, never supplied (datasources.md §5, §5.6).
const std::set<std::string>& ServerManaged() {
  static const std::set<std::string> kKeys{"jdbcUrl",
                                           "username",
                                           "password",
                                           "driverClassName",
                                           "dataSourceClassName",
                                           "poolName",
                                           "metricRegistry",
                                           "healthCheckRegistry",
                                           "exceptionOverrideClassName",
                                           "dataSource",
                                           "dataSourceJNDI",
                                           "threadFactory",
                                           "scheduledExecutor"};
  return kKeys;
}

// Genuine Hikari settings with no effect on this pool: accepted so a Hikari-shaped config
// saved for the JVM implementation stays valid.
const std::set<std::string>& Ignored() {
  static const std::set<std::string> kKeys{"keepaliveTime",
                                           "leakDetectionThreshold",
                                           "initializationFailTimeout",
                                           "autoCommit",
                                           "transactionIsolation",
                                           "isolateInternalQueries",
                                           "allowPoolSuspension",
                                           "registerMbeans",
                                           "catalog",
                                           "schema",
                                           "readOnly",
                                           "connectionInitSql"};
  return kKeys;
}

int Millis(const std::string& key, const Json& value, int minimum) {
  if (!value.is_number_integer()) Invalid(key, "must be an integer");
  auto number = value.get<int64_t>();
  if (number < minimum || number > 86400000LL * 365) Invalid(key, "is out of range");
  return static_cast<int>(number);
}

}  // namespace

PoolSettings PoolSettings::FromHikari(const Json& hikari) {
  PoolSettings settings;
  if (hikari.is_null()) return settings;
  if (!hikari.is_object()) Invalid("*", "properties.hikari must be an object");
  for (const auto& [key, value] : hikari.items()) {
    if (ServerManaged().count(key)) Invalid(key, "is server-managed and may not be set");
    if (key == "maximumPoolSize") {
      settings.max_size = Millis(key, value, 1);
    } else if (key == "minimumIdle") {
      settings.min_idle = Millis(key, value, 0);
    } else if (key == "connectionTimeout") {
      settings.acquire_timeout_ms = Millis(key, value, 250);
    } else if (key == "idleTimeout") {
      settings.idle_timeout_ms = Millis(key, value, 0);
    } else if (key == "maxLifetime") {
      settings.max_lifetime_ms = Millis(key, value, 0);
    } else if (key == "validationTimeout") {
      settings.validation_timeout_ms = Millis(key, value, 250);
    } else if (key == "connectionTestQuery") {
      if (!value.is_string()) Invalid(key, "must be a string");
      settings.validation_query = value.get<std::string>();
    } else if (!Ignored().count(key)) {
      Invalid(key, "is not a recognised pool property");
    }
  }
  if (settings.min_idle > settings.max_size) settings.min_idle = settings.max_size;
  return settings;
}

Json PoolSettings::ToHikari() const {
  Json out{{"maximumPoolSize", max_size},
           {"minimumIdle", min_idle},
           {"connectionTimeout", acquire_timeout_ms},
           {"idleTimeout", idle_timeout_ms},
           {"maxLifetime", max_lifetime_ms},
           {"validationTimeout", validation_timeout_ms}};
  if (!validation_query.empty()) out["connectionTestQuery"] = validation_query;
  return out;
}

}  // namespace dp
