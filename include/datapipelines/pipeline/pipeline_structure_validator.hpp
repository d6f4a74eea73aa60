#pragma once
// Every save-time rule decidable from the pipeline body alone (pipeline-contract §12.1-§12.4,
// §12.7, §12.8, the body-alone parts of §12.9, all of §12.10, §12.12), reported all at once.
// Registry-dependent rules (datasources, templates, child pipelines) belong to the service's
// environment validator, which adds to the same ValidationProblems.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class PipelineStructureValidator {
 public:
  struct Options {
    std::size_t max_nodes = 1000;            // §12.2 pipeline_too_large
    int64_t node_timeout_max_seconds = 900;  // datapipelines.executor.node-timeout-max-seconds
    std::size_t max_checks = 20;             // §12.12
  };

  static void Validate(const PipelineBody& body, const Options& options,
                       ValidationProblems& problems);
};

// The depends_on graph, with iterative traversal only (§12.2 crash-safety: a 1000-deep chain
// must not exhaust the stack). Duplicate ids resolve to their first node; dangling ids are
// skipped (they are dangling_dependency, reported separately).
class NodeGraph {
 public:
  explicit NodeGraph(const PipelineBody& body);

  std::optional<std::size_t> IndexOf(const std::string& node_id) const;
  // True when `reader` depends on `producer` directly or transitively. Computed once per reader.
  bool DependsOn(std::size_t reader, std::size_t producer) const;
  // The first cycle found, as node ids with the first repeated at the end ([a, b, a]).
  std::optional<std::vector<std::string>> FindCycle() const;

 private:
  const std::vector<bool>& UpstreamOf(std::size_t reader) const;

  std::vector<std::string> ids_;
  std::vector<std::vector<std::size_t>> parents_;
  std::unordered_map<std::string, std::size_t> index_;
  mutable std::unordered_map<std::size_t, std::vector<bool>> upstream_;
};

// "folder_required" | "grammar" when `name` is not a legal pipeline path (§3.2), else nullopt.
std::optional<std::string> PipelineNameDefect(const std::string& name);

// Every key a CALCULATOR node writes -> its output type ("ANY" when the kind is ANY-output or
// unknown). The first writer wins when two nodes collide.
std::map<std::string, std::string> CalculatorKeyTypes(const PipelineBody& body);
// Spec §6.2.2 / MCP §6.2.2: one entry per calculator key, {"type", "required": false,
// "derived": true}, in node order. Derived on read, never stored.
Json DerivedParameters(const PipelineBody& body);
// True when node `reader_id` depends on `producer_id` directly or transitively. For many
// questions against one body, build a NodeGraph once instead.
bool IsUpstream(const PipelineBody& body, const std::string& reader_id,
                const std::string& producer_id);
// The node that writes Context key `key`, or nullptr.
const PipelineNode* CalculatorKeyProducer(const PipelineBody& body, const std::string& key);
// §12.11 door rule: {"parameters": [the DATE parameter names]} when the body is a raw-date door
// (>= 2 DATE parameters, no INTEGER year/quarter/month/*_year parameter, no CALCULATOR node
// whose kind declares a DATE output); nullopt otherwise.
std::optional<Json> RawDatePairDoor(const PipelineBody& body);

}  // namespace dp
