#include "datapipelines/endpoints/readonly_check.hpp"

namespace dp {
namespace {

std::optional<ReadonlyViolation> Check(const PipelineBody& body,
                                       const ReadonlyCheck::ChildResolver& children,
                                       const std::string& prefix, int depth) {
  for (const PipelineNode& node : body.nodes) {
    const std::string id = prefix + node.id;
    auto violation = [&](std::string reason) {
      return ReadonlyViolation{id, body.name, std::move(reason)};
    };
    if (!node.type) return violation("node '" + id + "' has no known type");
    switch (*node.type) {
      case NodeType::kCalculator:
        continue;
      case NodeType::kDml:
      case NodeType::kDdl:
        return violation("node '" + id + "' is " + ToString(*node.type) +
                         ": it changes data, and a GET is retried, preloaded and crawled");
      case NodeType::kDql: {
        const std::string target = node.EffectiveTarget();
        if (target == "tempdb" || target == "caller") continue;
        return violation("node '" + id + "' writes its rows back to a datasource (output.target '" +
                         target + "'): a write wearing a read's type");
      }
      case NodeType::kPipeline: {
        if (node.output && !node.output->target.empty() && node.output->target != "tempdb" &&
            node.output->target != "caller") {
          return violation("node '" + id + "' writes its child's rows back to a datasource");
        }
        if (!node.child) return violation("node '" + id + "' names no child pipeline");
        if (depth + 1 > ReadonlyCheck::kMaxDepth) {
          return violation("node '" + id + "' composes deeper than can be checked");
        }
        auto child = children(*node.child);
        if (!child) {
          return violation("node '" + id + "' pins " + node.child->name + " v" +
                           std::to_string(node.child->version) + ", which cannot be read");
        }
        if (auto inner = Check(*child, children, id + "/", depth + 1)) return inner;
        continue;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<ReadonlyViolation> ReadonlyCheck::FirstViolation(const PipelineBody& body,
                                                               const ChildResolver& children) {
  return Check(body, children, "", 0);
}

}  // namespace dp
