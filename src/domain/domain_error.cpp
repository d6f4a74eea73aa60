#include "datapipelines/domain/domain_error.hpp"

namespace dp {

DomainError::DomainError(ErrorCode code, std::string message, Json details)
    : std::runtime_error(std::move(message)), code_(code), details_(std::move(details)) {}

Json DomainError::ToJson() const {
  Json error = {{"code", std::string(code_.code)}, {"message", what()}};
  if (!details_.is_null()) error["details"] = details_;
  return error;
}

}  // namespace dp
