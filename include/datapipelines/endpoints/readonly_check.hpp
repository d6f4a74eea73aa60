#pragma once
// What may be published (REST API §19.2): every node of the version is a DQL node into tempdb
// or the caller, or a CALCULATOR, or a PIPELINE node whose pinned child satisfies the same rule
// transitively. A DML/DDL node, or a DQL node writing back to a datasource, is the violation,
// named by its node id (a child's node as "parent_node/child_node"). Pure: the child bodies
// come from the caller's resolver.
#include <functional>
#include <optional>
#include <string>

#include "datapipelines/pipeline/pipeline_body.hpp"

namespace dp {

struct ReadonlyViolation {
  std::string node_id;   // the offending node, child nodes joined by '/'
  std::string pipeline;  // the pipeline whose body holds it
  std::string reason;    // a sentence
};

class ReadonlyCheck {
 public:
  // The pinned child's body, or nullopt when it cannot be resolved (itself a violation: what
  // cannot be read cannot be proved side-effect-free).
  using ChildResolver = std::function<std::optional<PipelineBody>(const ChildPipelineRef&)>;
  static constexpr int kMaxDepth = 16;

  static std::optional<ReadonlyViolation> FirstViolation(const PipelineBody& body,
                                                         const ChildResolver& children);
};

}  // namespace dp
