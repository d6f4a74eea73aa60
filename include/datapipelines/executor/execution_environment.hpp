#pragma once
// What the executor needs from the rest of the server, as one port the execution service
// implements: templates rendered at their pins, datasources as the workspace sees them now,
// and child executions for PIPELINE nodes. The executor itself holds no registry and no store.
#include <memory>
#include <string>

#include "datapipelines/pipeline/pipeline_body.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class Connector;
class ExecutionCancellation;
class RowSink;

struct ExecutionSource {
  std::string name;
  std::string dialect;  // "POSTGRES", "MYSQL", "SQLITE"
  bool readonly = false;
  std::shared_ptr<Connector> connector;
};

struct ChildRun {
  std::string execution_id;
  int64_t rows_delivered = 0;
};

class ExecutionEnvironment {
 public:
  virtual ~ExecutionEnvironment() = default;
  // The pinned template rendered against the Context's data model. Throws
  // pipeline.node.template_not_found or pipeline.node.template_render_failed.
  virtual std::string Render(const TemplateRef& ref, const Json& model) = 0;
  // The datasource's live registry entry (re-read at run time: a flip to readonly since the
  // save fails here). Throws pipeline.node.datasource_not_found.
  virtual ExecutionSource Source(const std::string& name) = 0;
  // Runs a PIPELINE node's child execution to its end, its caller rows into `sink` (may be
  // null for a side-effect child). Throws pipeline.node.child_execution_failed with the child's
  // code and execution id when the child fails.
  virtual ChildRun RunChild(const PipelineNode& node, const Json& parameters, RowSink* sink,
                            ExecutionCancellation& parent) = 0;
};

}  // namespace dp
