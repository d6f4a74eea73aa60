#include "datapipelines/domain/domain_error.hpp"

namespace dp {

DomainError::DomainError(ErrorCode code, std::string message, Json details)
    : std::runtime_error(std::move(message)), code_(code), details_(std::move(details)) {}

Json DomainError::ToJson() const {
  Json error = {{"code", std::string(code_.code)}, {"message", what()}};
  if (!details_.is_null()) error["details"] = details_;
  if (record_.is_object()) {
    for (auto it = record_.begin(); it != record_.end(); ++it) {
      if (!error.contains(it.key())) error[it.key()] = it.value();
    }
  }
  return error;
}

}  // namespace dp
