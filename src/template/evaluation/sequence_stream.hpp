#pragma once
// The lazy sequence of ?filter / ?map / ?take_while / ?drop_while, pulled one item at a time
// the way FreeMarker's iterators are: a chain of these built-ins is one stream, and an item is
// only computed when a consumer (<#list>, ?first, ?seq_contains, ...) asks for it, so a lambda
// never runs on items FreeMarker would not reach (nor fails on them).
#include <memory>
#include <optional>

#include "template/evaluation/evaluator.hpp"

namespace dp::tmpl {

class SequenceStream {
 public:
  // `e` is a ?filter/?map/?take_while/?drop_while built-in; `ctx` must outlive the stream.
  SequenceStream(Evaluator* evaluator, const Expr* e, Ctx& ctx);

  bool HasNext();
  ValuePtr Next();  // only after HasNext() returned true; null for a missing item
  // The item count when it is known without running a lambda (only ?map over a sequence).
  std::optional<size_t> KnownSize() const;

 private:
  bool UpstreamHasNext();
  ValuePtr UpstreamNext();
  // Applies the lambda or function to one item.
  ValuePtr Apply(const ValuePtr& item);
  bool Matches(const ValuePtr& item);

  Evaluator* evaluator_;
  const Expr* expr_;
  Ctx& ctx_;
  std::unique_ptr<SequenceStream> upstream_;
  ValuePtr source_;  // when there is no upstream stream
  size_t next_index_ = 0;
  ValuePtr function_;  // a #function argument; null for a lambda
  // Filter-like look-ahead: the next item that passed, fetched by HasNext().
  bool prefetched_ = false;
  bool exhausted_ = false;
  bool dropping_done_ = false;
  ValuePtr prefetched_item_;
};

}  // namespace dp::tmpl
