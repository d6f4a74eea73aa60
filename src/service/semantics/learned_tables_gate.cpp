#include "learned_tables_gate.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/service/datasources/datasource_explorer.hpp"
#include "datapipelines/store/audit_reader.hpp"
#include "datapipelines/store/template_store.hpp"
#include "datapipelines/util/ascii.hpp"

namespace dp {
namespace {

bool IsTokenChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// The body with every ${…} interpolation removed (nesting-aware, unterminated = to the end).
std::string StripInterpolations(const std::string& body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '$' && i + 1 < body.size() && body[i + 1] == '{') {
      int depth = 0;
      for (; i < body.size(); ++i) {
        if (body[i] == '{') ++depth;
        if (body[i] == '}' && --depth == 0) break;
      }
      out.push_back(' ');
      continue;
    }
    out.push_back(body[i]);
  }
  return out;
}

}  // namespace

std::set<std::string> TemplateTableTokens(const std::string& body) {
  std::string text = AsciiLower(StripInterpolations(body));
  std::set<std::string> tokens;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && IsTokenChar(text[i])) continue;
    if (i - start >= 4) tokens.insert(text.substr(start, i - start));
    start = i + 1;
  }
  return tokens;
}

LearnedTablesGate::LearnedTablesGate(TemplateStore& template_store, DatasourceExplorer& datasources,
                                     AuditReader& audit)
    : template_store_(template_store), datasources_(datasources), audit_(audit) {}

const std::set<std::string>& LearnedTablesGate::CatalogTables(const Principal& principal,
                                                              const std::string& datasource) {
  auto it = catalog_.find(datasource);
  if (it != catalog_.end()) return it->second;
  std::set<std::string> names;
  try {
    TableLocator locator;
    locator.datasource = datasource;
    const Json listing = datasources_.GetTables(principal, locator);  // outlives the loop
    for (const Json& table : listing["tables"]) {
      names.insert(AsciiLower(table.value("name", "")));
    }
  } catch (const std::exception&) {
    // An unreachable or invisible datasource is §12.5's business, not this check's.
  }
  return catalog_.emplace(datasource, std::move(names)).first->second;
}

void LearnedTablesGate::Check(const Principal& principal, const PipelineBody& body,
                              ValidationProblems& problems) {
  std::set<std::pair<std::string, std::string>> learned;
  for (const auto& call : audit_.SuccessfulToolCalls(principal.key_id, "datasources_get_columns")) {
    // datasources_get_columns names its datasource `name` (spec §6.2.18).
    learned.insert({call.target.value("name", ""), AsciiLower(call.target.value("table", ""))});
  }
  Json missing = Json::array();
  std::set<std::pair<std::string, std::string>> reported;
  for (const auto& node : body.nodes) {
    const std::string source = node.source.value_or("");
    if (!node.template_ref || source.empty() || source == "tempdb") continue;
    auto version =
        template_store_.FindTemplateVersion(principal.workspace_id, node.template_ref->id,
                                            static_cast<int>(node.template_ref->version));
    if (!version) continue;
    const auto& tables = CatalogTables(principal, source);
    for (const std::string& token : TemplateTableTokens(version->body)) {
      if (!tables.count(token) || learned.count({source, token})) continue;
      if (!reported.insert({source, token}).second) continue;
      missing.push_back({{"datasource", source},
                         {"table", token},
                         {"node", node.id},
                         {"clearing_call",
                          {{"tool", "datasources_get_columns"},
                           {"arguments", {{"name", source}, {"table", token}}}}}});
    }
  }
  if (missing.empty()) return;
  problems.Add(errc::kPipelineTableNotLearned, "nodes",
               "The body's templates name tables this key never read the columns of: call "
               "datasources_get_columns for each listed table, then save again.",
               Json{{"tables", std::move(missing)}});
}

}  // namespace dp
