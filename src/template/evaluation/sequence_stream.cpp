#include "template/evaluation/sequence_stream.hpp"

#include "template/evaluation/builtins/builtin_names.hpp"

namespace dp::tmpl {

SequenceStream::SequenceStream(Evaluator* evaluator, const Expr* e, Ctx& ctx)
    : evaluator_(evaluator), expr_(e), ctx_(ctx) {
  const Expr* target = e->args[0].get();
  if (target->IsBuiltInOf(BuiltInFamily::kStream)) {
    upstream_ = std::make_unique<SequenceStream>(evaluator, target, ctx);
  } else {
    source_ = evaluator->EvalRequired(target, ctx);
    if (source_->type != ValueType::kSequence) {
      evaluator->FailType(target, "a sequence for ?" + e->name, source_);
    }
  }
  const Expr* fn = e->call_args[0].get();
  if (fn->kind != ExprKind::kLambda) {
    function_ = evaluator->EvalRequired(fn, ctx);
    if (function_->type != ValueType::kFunction) {
      evaluator->FailType(fn, "a function or lambda expression for ?" + e->name, function_);
    }
  }
}

std::optional<size_t> SequenceStream::KnownSize() const {
  if (!expr_->IsBuiltIn(BuiltIn::kMap)) return std::nullopt;
  if (upstream_) return upstream_->KnownSize();
  return source_->SequenceSize();
}

bool SequenceStream::UpstreamHasNext() {
  if (upstream_) return upstream_->HasNext();
  return next_index_ < source_->SequenceSize();
}

ValuePtr SequenceStream::UpstreamNext() {
  if (upstream_) return upstream_->Next();
  return source_->SequenceAt(next_index_++);
}

ValuePtr SequenceStream::Apply(const ValuePtr& item) {
  evaluator_->Step(1, expr_->pos);
  if (function_)
    return evaluator_->CallFunction(*function_, std::span<const ValuePtr>(&item, 1), expr_->pos);
  const Expr* lambda = expr_->call_args[0].get();
  LambdaArg arg{lambda->name, item, ctx_.lambda};
  Ctx inner = ctx_;
  inner.lambda = &arg;
  return evaluator_->Eval(lambda->args[0].get(), inner);
}

bool SequenceStream::Matches(const ValuePtr& item) {
  const ValuePtr result = Apply(item);
  const Expr* fn = expr_->call_args[0].get();
  const Expr* shown = fn->kind == ExprKind::kLambda ? fn->args[0].get() : fn;
  if (!result) {
    evaluator_->Fail(expr_->pos, "?" + expr_->name + ": the function returned nothing for an item");
  }
  return evaluator_->RequireBoolean(result, shown);
}

bool SequenceStream::HasNext() {
  const BuiltIn op = expr_->builtin->id;
  if (op == BuiltIn::kMap) return UpstreamHasNext();
  if (op == BuiltIn::kDropWhile && dropping_done_) return prefetched_ || UpstreamHasNext();
  if (prefetched_) return true;
  if (exhausted_) return false;
  while (UpstreamHasNext()) {
    ValuePtr item = UpstreamNext();
    const bool matches = Matches(item);
    if (op == BuiltIn::kFilter && !matches) continue;
    if (op == BuiltIn::kTakeWhile && !matches) break;
    if (op == BuiltIn::kDropWhile) {
      if (matches) continue;
      dropping_done_ = true;
    }
    prefetched_ = true;
    prefetched_item_ = std::move(item);
    return true;
  }
  exhausted_ = true;
  dropping_done_ = true;
  return false;
}

ValuePtr SequenceStream::Next() {
  if (expr_->IsBuiltIn(BuiltIn::kMap)) {
    ValuePtr mapped = Apply(UpstreamNext());
    if (!mapped) {
      evaluator_->Fail(expr_->pos,
                       "?map: the element mapper function has returned no value (null)");
    }
    return mapped;
  }
  HasNext();
  if (prefetched_) {
    prefetched_ = false;
    return std::move(prefetched_item_);
  }
  return UpstreamNext();  // drop_while, past the dropped prefix
}

}  // namespace dp::tmpl
