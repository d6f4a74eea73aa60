// ?filter ?map ?take_while ?drop_while of Evaluator, and the consumers FreeMarker 2.3.31 feeds
// lazily from them (<#list>, ?first, ?size, ?seq_contains, ?seq_index_of, ?seq_last_index_of).
#include <limits>

#include "template/evaluation/builtins/builtin_names.hpp"
#include "template/evaluation/evaluator.hpp"
#include "template/evaluation/sequence_stream.hpp"

namespace dp::tmpl {
namespace {

bool IsStream(const Expr* e) { return e->IsBuiltInOf(BuiltInFamily::kStream); }

bool SameValue(const ValuePtr& item, const ValuePtr& needle) {
  if (!item || item->type != needle->type) return false;
  switch (item->type) {
    case ValueType::kNumber:
      return item->number.Compare(needle->number) == 0;
    case ValueType::kString:
      return item->str == needle->str;
    case ValueType::kBoolean:
      return item->boolean == needle->boolean;
    default:
      return false;
  }
}

}  // namespace

std::optional<ValuePtr> Evaluator::EvalStreamBuiltIn(const Expr* e, Ctx& ctx) {
  const std::string& name = e->name;
  const BuiltIn id = e->builtin->id;
  const Expr* target = e->args[0].get();
  if (IsStream(e)) {  // not read lazily by its consumer: materialised
    SequenceStream stream(this, e, ctx);
    std::vector<ValuePtr> items;
    while (stream.HasNext()) {
      Step(1, e->pos);
      items.push_back(stream.Next());
    }
    return Value::Sequence(std::move(items));
  }
  if (!IsStream(target)) return std::nullopt;
  if (id == BuiltIn::kFirst) {
    SequenceStream stream(this, target, ctx);
    return stream.HasNext() ? stream.Next() : nullptr;
  }
  if (id == BuiltIn::kSize) {
    SequenceStream stream(this, target, ctx);
    if (auto known = stream.KnownSize()) return Value::Int(static_cast<int64_t>(*known));
    int64_t count = 0;
    for (; stream.HasNext(); ++count) stream.Next();
    return Value::Int(count);
  }
  if (id != BuiltIn::kSeqContains && id != BuiltIn::kSeqIndexOf && id != BuiltIn::kSeqLastIndexOf) {
    return std::nullopt;
  }
  const size_t max_args = id == BuiltIn::kSeqContains ? 1 : 2;
  if (e->call_args.empty() || e->call_args.size() > max_args) {
    Fail(e->pos, "?" + name + " expects " + (max_args == 1 ? "1" : "1 or 2") + " argument(s)");
  }
  SequenceStream stream(this, target, ctx);
  const ValuePtr needle = EvalRequired(e->call_args[0].get(), ctx);
  int64_t from = 0;
  int64_t to = std::numeric_limits<int32_t>::max();
  if (e->call_args.size() > 1) {
    const ValuePtr bound = EvalRequired(e->call_args[1].get(), ctx);
    const int64_t start = RequireNumber(bound, e->call_args[1].get()).LongValue();
    (id == BuiltIn::kSeqIndexOf ? from : to) = start;
  }
  int64_t found = -1;
  for (int64_t i = 0; to >= 0 && stream.HasNext() && i <= to; ++i) {
    Step(1, e->pos);
    const ValuePtr item = stream.Next();
    if (i < from || !SameValue(item, needle)) continue;
    found = i;
    if (id != BuiltIn::kSeqLastIndexOf) break;
  }
  if (id == BuiltIn::kSeqContains) return Value::Boolean(found >= 0);
  return Value::Int(found);
}

// <#list stream as x>: the next item is fetched before the body runs (for ?has_next), as
// FreeMarker's iteration does.
Flow Evaluator::RunStreamLoop(const Node* vars, const std::vector<NodePtr>& body,
                              SequenceStream& stream, Ctx& ctx) {
  LoopState state;
  state.list = vars;
  state.parent = ctx.loops;
  Ctx inner{ctx.frame, &state};
  for (size_t i = 0; stream.HasNext(); ++i) {
    Step(1, vars->begin);
    state.index = i;
    state.item = stream.Next();
    state.has_next = stream.HasNext();
    Flow flow = ExecChildren(body, inner);
    if (flow == Flow::kBreak) break;
    if (flow == Flow::kReturn) return flow;
  }
  return Flow::kNormal;
}

}  // namespace dp::tmpl
