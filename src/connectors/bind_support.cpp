#include "bind_support.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"

namespace dp::bind_support {

const BindValue& Require(const std::string& name, const BindMap& binds) {
  auto it = binds.find(name);
  if (it == binds.end()) {
    throw DomainError(errc::kRequestInvalid,
                      "parameter '" + name + "' is referenced as :" + name + " but not supplied",
                      Json{{"parameter", name}});
  }
  return it->second;
}

}  // namespace dp::bind_support
