#pragma once
// Statement execution in the portable SQL subset ($1..$n placeholders), shared by the record-kind
// stores that live on the metadata database's connection.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace dp {

// A bound parameter: NULL, an integer or text.
using SqlValue = std::variant<std::nullptr_t, int64_t, std::string>;
// A result row as text columns (NULL = nullopt), the lowest common denominator of both drivers.
using SqlRow = std::vector<std::optional<std::string>>;

class SqlExecutor {
 public:
  virtual ~SqlExecutor() = default;
  // Runs one statement and returns its rows. Throws DuplicateKeyError on a unique
  // violation, std::runtime_error (credential-free) otherwise.
  virtual std::vector<SqlRow> Query(const std::string& sql,
                                    const std::vector<SqlValue>& params) = 0;
  // Runs one statement and returns how many rows it changed.
  virtual int64_t Execute(const std::string& sql, const std::vector<SqlValue>& params) = 0;
};

}  // namespace dp
