// target[range] of Evaluator: FreeMarker 2.3.31's slicing rules (DynamicKeyName).
#include <cstdlib>

#include "template/evaluation/evaluator.hpp"
#include "template/java/utf16_text.hpp"

namespace dp::tmpl {
namespace {

std::string Count(int64_t n, bool string) {
  return std::to_string(n) + (string ? " character(s)" : " element(s)");
}

}  // namespace

ValuePtr Evaluator::Slice(const ValuePtr& target, const RangeSpec& range, const Expr* e) {
  const Expr* target_expr = e->args[0].get();
  const bool is_string = target->type != ValueType::kSequence;
  std::string text;
  if (is_string) {
    if (target->type != ValueType::kString && target->type != ValueType::kNumber &&
        target->type != ValueType::kBoolean && target->type != ValueType::kMarkup) {
      FailType(target_expr, "a sequence or string", target);
    }
    text = Stringify(target, target_expr, "a sequence or string");
  }
  // An empty range slices nothing, so its start is never out of bounds.
  if (!range.right_unbounded && range.size == 0) {
    return is_string ? Value::String("") : Value::Sequence({});
  }
  const int64_t first = range.begin;
  const char* what = is_string ? "string" : "sequence";
  if (first < 0) {
    Fail(e->pos, "Negative range start index (" + std::to_string(first) +
                     ") isn't allowed for a range used for slicing");
  }
  const int64_t size = is_string ? Utf16Length(text) : static_cast<int64_t>(target->SequenceSize());
  // An adaptive increasing range may start just past the end: it is then empty.
  if (range.right_adaptive && range.step == 1 ? first > size : first >= size) {
    Fail(e->pos, "Range start index " + std::to_string(first) +
                     " is out of bounds, because the sliced " + what + " has only " +
                     Count(size, is_string));
  }
  int64_t result_size = 0;
  if (range.right_unbounded) {
    result_size = size - first;
  } else {
    const int64_t last = first + (range.size - 1) * range.step;  // inclusive
    if (last < 0) {
      if (!range.right_adaptive) {
        Fail(e->pos, "Negative range end index (" + std::to_string(last) +
                         ") isn't allowed for a range used for slicing");
      }
      result_size = first + 1;
    } else if (last >= size) {
      if (!range.right_adaptive) {
        Fail(e->pos, "Range end index " + std::to_string(last) +
                         " is out of bounds, because the sliced " + what + " has only " +
                         Count(size, is_string));
      }
      result_size = std::abs(size - first);
    } else {
      result_size = range.size;
    }
  }
  if (result_size == 0) return is_string ? Value::String("") : Value::Sequence({});
  if (!is_string) {
    Step(static_cast<uint64_t>(result_size), e->pos);
    std::vector<ValuePtr> items;
    items.reserve(static_cast<size_t>(result_size));
    for (int64_t i = 0, at = first; i < result_size; ++i, at += range.step) {
      items.push_back(target->SequenceAt(static_cast<size_t>(at)));
    }
    return Value::Sequence(std::move(items));
  }
  int64_t end = first + result_size;
  if (range.step < 0 && result_size > 1) {
    // FreeMarker keeps its legacy bug: "s"[n..n-1] is "" instead of an error.
    if (!(range.inclusive_end && result_size == 2)) {
      Fail(e->pos,
           "Decreasing ranges aren't allowed for slicing strings (as it would give reversed "
           "text). The index range was: first = " +
               std::to_string(first) +
               ", last = " + std::to_string(first + (result_size - 1) * range.step));
    }
    end = first;
  }
  return MakeString(Utf16Substring(text, first, end), e->pos);
}

}  // namespace dp::tmpl
