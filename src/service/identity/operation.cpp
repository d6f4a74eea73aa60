#include "datapipelines/service/identity/operation.hpp"

#include <array>

namespace dp {
namespace {

constexpr std::array kOperations{
#define DP_OPERATION_ROW(id, name, scope, role, mutating) \
  OperationAccess{Operation::id, name, Scope::scope, RoleFloor::role, mutating},
    DP_OPERATIONS(DP_OPERATION_ROW)
#undef DP_OPERATION_ROW
};

// The rows are in enumerator order, so an operation indexes its own row.
constexpr bool RowsInEnumeratorOrder() {
  for (std::size_t i = 0; i < kOperations.size(); ++i) {
    if (static_cast<std::size_t>(kOperations[i].operation) != i) return false;
  }
  return true;
}
static_assert(RowsInEnumeratorOrder());

}  // namespace

const OperationAccess& AccessOf(Operation operation) {
  return kOperations[static_cast<std::size_t>(operation)];
}

std::span<const OperationAccess> AllOperations() { return kOperations; }

}  // namespace dp
