// Issue 9, audit inflation: whatever a request carries, its audit row stays small — every
// string capped at AuditLog::kMaxStringBytes, identifier arrays at kMaxDetailItems scalars, no
// argument tree copied. Cases in tests/hardening_cases/audit_rows.json; "inflate" replaces the
// value at a JSON pointer of the request with a long string (string_bytes) or an array of
// array_items such strings, so the case file stays small.
#include <gtest/gtest.h>

#include <fstream>

#include "datapipelines/mcp/tools/docs_tools.hpp"
#include "hardening_case.hpp"

namespace dp {
namespace {

Json BuildRequest(const Json& spec) {
  Json request = spec["request"];
  if (!spec.contains("inflate")) return request;
  const Json& inflate = spec["inflate"];
  Json value = std::string(inflate["string_bytes"].get<std::size_t>(), 'a');
  if (inflate.contains("array_items")) {
    value = Json::array();
    for (int i = 0; i < inflate["array_items"].get<int>(); ++i) {
      value.push_back(std::string(inflate["string_bytes"].get<std::size_t>(), 'a'));
    }
  }
  request[Json::json_pointer(inflate["pointer"].get<std::string>())] = std::move(value);
  return request;
}

void ExpectCapped(const Json& value, const std::string& where) {
  if (value.is_string()) {
    EXPECT_LE(value.get_ref<const std::string&>().size(), AuditLog::kMaxStringBytes) << where;
  }
  if (!value.is_structured()) return;
  EXPECT_LE(value.size(), AuditLog::kMaxDetailItems + 1) << where;  // +1: the "omitted" note
  for (auto it = value.begin(); it != value.end(); ++it) {
    ExpectCapped(*it, where + "/" + (value.is_object() ? it.key() : "[]"));
  }
}

class AuditRowCases : public test::HardeningStack {};

TEST_P(AuditRowCases, RowStaysSmall) {
  const Json& spec = GetParam().spec;
  const std::string correlation = "00000000-0000-4000-8000-000000000011";
  mcp_->HandleRequest(BuildRequest(spec), McpRequestContext{P("ann"), correlation, "127.0.0.1"});
  auto rows = store_->Audit().ListAudit(spec["event"].get<std::string>(), 1);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].correlation_id, correlation);
  const Json view = AuditLog::View(rows[0]);
  EXPECT_LE(view.dump().size(), spec["max_row_bytes"].get<std::size_t>())
      << view.dump().substr(0, 600);
  ExpectCapped(view, "");
  const Json& target = rows[0].details.value("target", Json::object());
  if (spec.contains("expect_target")) {
    EXPECT_EQ(target, spec["expect_target"]) << view.dump();
  }
  if (spec.contains("expect_target_items")) {
    for (const auto& [key, count] : spec["expect_target_items"].items()) {
      EXPECT_EQ(target[key].size(), count.get<std::size_t>()) << key;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Requests, AuditRowCases,
                         ::testing::ValuesIn(test::LoadHardeningCases("audit_rows.json")),
                         test::HardeningCaseName);

}  // namespace
}  // namespace dp
