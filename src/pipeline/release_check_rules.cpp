// §12.12 release-check rules decidable from the body. One code (check_invalid) covers every
// defect; the path (checks[i].<field>) names the offender. The datasource registry lookup is the
// service's environment validator.
#include <cctype>
#include <set>
#include <string>

#include "datapipelines/connectors/named_parameters.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "pipeline/body_rules.hpp"
#include "pipeline/identifier_rules.hpp"
#include "pipeline/validation_paths.hpp"

namespace dp {
namespace {

using pipeline_paths::Bounded;
using pipeline_paths::Index;
using pipeline_paths::Member;
using pipeline_paths::Quoted;

std::size_t CodePointCount(const std::string& text) {
  std::size_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80;
  return count;
}

bool IsBlank(const std::string& text) {
  for (unsigned char c : text) {
    if (!std::isspace(c)) return false;
  }
  return true;
}

class CheckRules {
 public:
  CheckRules(const PipelineBody& body, ValidationProblems& problems)
      : body_(body), problems_(problems) {}

  void Run(std::size_t max_checks) {
    if (body_.checks.size() > max_checks) {
      Refuse("checks", "a body carries at most " + std::to_string(max_checks) + " checks",
             {{"count", body_.checks.size()}, {"max", max_checks}});
    }
    std::set<std::string> seen_ids;
    for (std::size_t i = 0; i < body_.checks.size(); ++i) {
      const PipelineCheck& check = body_.checks[i];
      const std::string path = Index("checks", i);
      ValidateId(check, Member(path, "id"), seen_ids);
      const std::size_t name_length = CodePointCount(check.name);
      if (name_length < 1 || name_length > 200) {
        Refuse(Member(path, "name"), "check name must be 1-200 characters",
               {{"check", Bounded(check.id)}, {"length", name_length}});
      }
      ValidateDatasource(check, Member(path, "datasource"));
      ValidateSql(check, Member(path, "sql"));
      ValidateExpected(check, Member(path, "expected"));
    }
  }

 private:
  void Refuse(const std::string& path, const std::string& message, Json details = Json::object()) {
    details["field"] = path;
    problems_.Add(errc::kPipelineCheckInvalid, path, message, std::move(details));
  }

  void ValidateId(const PipelineCheck& check, const std::string& path,
                  std::set<std::string>& seen_ids) {
    if (!identifier_rules::IsTableIdentifier(check.id)) {
      Refuse(path, "check id " + Quoted(check.id) + " must match [a-z0-9_]{1,63}",
             {{"check", Bounded(check.id)}});
    } else if (identifier_rules::IsReservedIdentifier(check.id)) {
      Refuse(path, "check id " + Quoted(check.id) + " is reserved (tempdb, __...__)",
             {{"check", check.id}});
    } else if (!seen_ids.insert(check.id).second) {
      Refuse(path, "check id " + Quoted(check.id) + " is used twice; ids are unique in a body",
             {{"check", check.id}});
    }
  }

  void ValidateDatasource(const PipelineCheck& check, const std::string& path) {
    if (check.datasource.empty()) {
      Refuse(path, "check " + Quoted(check.id) + " needs a datasource",
             {{"check", Bounded(check.id)}});
    } else if (check.datasource == "tempdb") {
      Refuse(path,
             "tempdb is not a check datasource: it exists only inside an execution, and a check "
             "runs outside any",
             {{"check", Bounded(check.id)}});
    }
  }

  void ValidateSql(const PipelineCheck& check, const std::string& path) {
    const Json where = {{"check", Bounded(check.id)}};
    if (IsBlank(check.sql)) return Refuse(path, "check sql must not be blank", where);
    if (check.sql.find("${") != std::string::npos) {
      return Refuse(path,
                    "check sql has no rendering: ${} interpolation is refused; bind values as "
                    ":name parameters",
                    where);
    }
    // The datasource's dialect is a registry fact; POSTGRES is the broadest bind grammar (it
    // also skips `::` casts and dollar quotes). The service re-parses with the real dialect.
    Json undeclared = Json::array();
    for (const auto& bind : NamedParameters::Parse(check.sql, Dialect::kPostgres).DistinctNames()) {
      if (body_.FindParameter(bind) == nullptr) undeclared.push_back(Bounded(bind));
    }
    if (undeclared.empty()) return;
    Refuse(path,
           "check binds " + undeclared.dump() +
               ", which are not declared pipeline parameters (the calculator Context is not "
               "available to a check)",
           {{"check", Bounded(check.id)}, {"undeclared", undeclared}});
  }

  void RequireNumber(const Json& expected, const char* member, const std::string& path,
                     bool required) {
    if (!expected.contains(member)) {
      if (required)
        Refuse(Member(path, member), std::string("expected.") + member + " is required");
      return;
    }
    if (!expected[member].is_number()) {
      Refuse(Member(path, member), std::string("expected.") + member + " must be a number");
    }
  }

  void ValidateExpected(const PipelineCheck& check, const std::string& path) {
    const Json& expected = check.expected;
    const Json* kind = expected.contains("kind") ? &expected["kind"] : nullptr;
    const std::string kind_name =
        kind != nullptr && kind->is_string() ? kind->get<std::string>() : "";
    std::set<std::string> members;
    if (kind_name == "value") {
      members = {"kind", "value", "tolerance"};
      RequireNumber(expected, "value", path, true);
      RequireNumber(expected, "tolerance", path, false);
      if (expected.contains("tolerance") && expected["tolerance"].is_number() &&
          expected["tolerance"].get<double>() < 0) {
        Refuse(Member(path, "tolerance"), "expected.tolerance must be >= 0");
      }
    } else if (kind_name == "range") {
      members = {"kind", "min", "max"};
      RequireNumber(expected, "min", path, true);
      RequireNumber(expected, "max", path, true);
      if (expected.contains("min") && expected.contains("max") && expected["min"].is_number() &&
          expected["max"].is_number() &&
          expected["min"].get<double>() > expected["max"].get<double>()) {
        Refuse(Member(path, "min"), "expected.min must be <= expected.max");
      }
    } else if (kind_name == "rows") {
      members = {"kind", "rows"};
      const bool valid = expected.contains("rows") && expected["rows"].is_number_integer() &&
                         expected["rows"].get<int64_t>() >= 0;
      if (!valid) Refuse(Member(path, "rows"), "expected.rows must be a non-negative integer");
    } else {
      return Refuse(Member(path, "kind"), "expected.kind must be value, range or rows",
                    {{"check", Bounded(check.id)}, {"allowed", {"value", "range", "rows"}}});
    }
    // The author supplies the expectation, never an observation: no other member may ride in.
    for (const auto& [member, value] : expected.items()) {
      if (members.count(member) == 0) {
        Refuse(Member(path, member),
               Quoted(member) + " is not a member of a " + kind_name + " expectation");
      }
    }
  }

  const PipelineBody& body_;
  ValidationProblems& problems_;
};

}  // namespace

void ValidateReleaseChecks(const PipelineBody& body, std::size_t max_checks,
                           ValidationProblems& problems) {
  CheckRules(body, problems).Run(max_checks);
}

}  // namespace dp
