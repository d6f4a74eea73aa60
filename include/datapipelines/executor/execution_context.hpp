#pragma once
// The Context of one execution (pipeline-contract §7): one namespace of typed keys in five tiers
// — org config, platform, declared parameters after defaulting, execute-time inputs, calculator
// outputs — that every node renders against and binds `:key` from. Built once per execution;
// calculator nodes write into it while nodes run in parallel, so access is synchronized.
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "datapipelines/calculators/calculator_context.hpp"
#include "datapipelines/connectors/bind_value.hpp"
#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class ExecutionContext {
 public:
  // Seeds tiers 1–4 from the body, the caller's `parameters` and the environment. Refused before
  // any node runs: pipeline.execution.invalid_parameter_type naming every failure at once (a
  // supplied calculator key is typed by its kind's output), parameter_required for a missing
  // required parameter, calculator_keys_partial for a proper subset of a multi-output node's
  // keys, and an undeclared input key.
  static ExecutionContext Resolve(const PipelineBody& body, const Json& supplied,
                                  const CalculatorEnvironment& environment,
                                  const std::string& execution_id);

  ExecutionContext(const ExecutionContext&) = delete;
  ExecutionContext& operator=(const ExecutionContext&) = delete;
  ExecutionContext(ExecutionContext&& other) noexcept;

  // A CALCULATOR node whose every key the caller supplied is skipped (§4.10).
  bool SuppliedByCaller(const std::string& node_id) const;
  // Tier 5: a calculator node's output.
  void Write(const std::string& key, Json value, std::string type);
  // The value of `key` in wire form; null when absent.
  Json Value(const std::string& key) const;
  bool Has(const std::string& key) const;
  // {key: wire value} — the template data model.
  Json RenderModel() const;
  // The typed binds of `names`; a name the Context does not hold is
  // pipeline.node.sql_parameter_missing (never bound as null: that returns wrong data).
  BindMap Binds(const std::vector<std::string>& names) const;
  // The fully resolved Context, persisted with the execution (dag-executor §7.3).
  Json Snapshot() const;

 private:
  struct Entry {
    Json value;
    std::string type;  // canonical type name, or "ANY"
  };
  ExecutionContext() = default;

  mutable std::mutex mutex_;
  std::map<std::string, Entry> keys_;
  std::set<std::string> supplied_nodes_;
};

}  // namespace dp
