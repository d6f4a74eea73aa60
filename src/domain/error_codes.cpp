#include "datapipelines/domain/error_codes.hpp"

#include <array>

namespace dp::errc {

std::span<const ErrorCode> All() {
#define DP_ERROR_CODE(name, code, status) name,
  static constexpr std::array kAll{
#include "datapipelines/domain/error_codes.inc"
  };
#undef DP_ERROR_CODE
  return kAll;
}

}  // namespace dp::errc
