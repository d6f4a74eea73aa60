// Pending OIDC sign-ins (migration 0012), written once in the portable SQL subset.
#include <memory>
#include <string>

#include "datapipelines/store/metadata_store.hpp"
#include "datapipelines/store/oidc_login_request_store.hpp"
#include "sql_cells.hpp"

namespace dp {
namespace {

using sql_cells::First;
using sql_cells::Int;
using sql_cells::Select;
using sql_cells::Text;

constexpr const char* kRequestColumns =
    "state_hash, provider, nonce, code_verifier, next_path, created_at_ms";

OidcLoginRequest ToRequest(const SqlRow& r) {
  return OidcLoginRequest{Text(r, 0), Text(r, 1), Text(r, 2), Text(r, 3), Text(r, 4), Int(r, 5)};
}

class SqlOidcLoginRequestStore final : public OidcLoginRequestStore {
 public:
  explicit SqlOidcLoginRequestStore(SqlExecutor& sql) : sql_(sql) {}

  void Insert(const OidcLoginRequest& r) override {
    sql_.Execute(
        std::string("INSERT INTO oidc_login_requests (") + kRequestColumns +
            ") VALUES ($1, $2, $3, $4, $5, $6)",
        {r.state_hash, r.provider, r.nonce, r.code_verifier, r.next_path, r.created_at_ms});
  }

  std::optional<OidcLoginRequest> Take(const std::string& state_hash) override {
    auto found =
        First(sql_.Query(Select(kRequestColumns, "FROM oidc_login_requests WHERE state_hash = $1"),
                         {state_hash}),
              &ToRequest);
    // The delete decides: of two callbacks racing with one state, one removes the row.
    if (!found ||
        sql_.Execute("DELETE FROM oidc_login_requests WHERE state_hash = $1", {state_hash}) != 1) {
      return std::nullopt;
    }
    return found;
  }

  int64_t DropOlderThan(int64_t before_ms) override {
    return sql_.Execute("DELETE FROM oidc_login_requests WHERE created_at_ms < $1", {before_ms});
  }

 private:
  SqlExecutor& sql_;
};

}  // namespace

std::unique_ptr<OidcLoginRequestStore> OpenOidcLoginRequestStore(MetadataStore& metadata) {
  return std::make_unique<SqlOidcLoginRequestStore>(metadata);
}

}  // namespace dp
