#pragma once
// pipeline.validation.table_not_learned (spec §6.2.4, pipeline-contract §12.11): on the agent
// surface, a body whose pinned template names a table of its node's datasource that THIS key
// never read the columns of (a successful datasources_get_columns audit row) is refused, with
// the clearing calls listed. tempdb sources, ${…} names and names the catalog does not list
// are exempt.
#include <map>
#include <set>
#include <string>

#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/service/identity/principal.hpp"

namespace dp {

class AuditReader;
class DatasourceExplorer;
class TemplateStore;

// The [a-z0-9_]{4,} tokens of a template body (case-folded), every ${…} span stripped first.
std::set<std::string> TemplateTableTokens(const std::string& body);

class LearnedTablesGate {
 public:
  LearnedTablesGate(TemplateStore& template_store, DatasourceExplorer& datasources,
                    AuditReader& audit);

  void Check(const Principal& principal, const PipelineBody& body, ValidationProblems& problems);

 private:
  // Case-folded table names the datasource's catalog lists; empty when it cannot be read.
  const std::set<std::string>& CatalogTables(const Principal& principal,
                                             const std::string& datasource);

  TemplateStore& template_store_;
  DatasourceExplorer& datasources_;
  AuditReader& audit_;
  std::map<std::string, std::set<std::string>> catalog_;
};

}  // namespace dp
