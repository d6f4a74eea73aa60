// Sequence and hash built-ins of Evaluator, FreeMarker 2.3.31 semantics.
#include <algorithm>

#include "template/evaluation/builtins/builtin_args.hpp"
#include "template/evaluation/evaluator.hpp"
#include "template/java/java_collation.hpp"

namespace dp::tmpl {
// ?size ?first ?join ?sort_by ... of a sequence.
ValuePtr Evaluator::EvalSequenceBuiltIn(const Expr* e, const ValuePtr& target,
                                        const BuiltInArgs& args) {
  const BuiltIn id = e->builtin->id;
  const Expr* target_expr = e->args[0].get();
  auto str = [&](std::string s) { return MakeString(std::move(s), e->pos); };
  const size_t size = target->SequenceSize();
  if (id == BuiltIn::kSize) return Value::Int(static_cast<int64_t>(size));
  if (id == BuiltIn::kFirst) return size ? target->SequenceAt(0) : nullptr;
  if (id == BuiltIn::kLast) return size ? target->SequenceAt(size - 1) : nullptr;
  if (id == BuiltIn::kJoin) {
    args.Need(1, 3);
    const std::string& sep = args.String(0);
    std::string out;
    size_t emitted = 0;
    for (size_t i = 0; i < size; ++i) {
      Step(1, e->pos);
      ValuePtr item = target->SequenceAt(i);
      if (!item) continue;
      if (emitted++) out += sep;
      out += Stringify(item, target_expr, "sequence items of string, number or boolean type");
      if (out.size() > 0 && out.size() / 4096 != (out.size() - 1) / 4096) MakeString(out, e->pos);
    }
    if (emitted == 0 && args.size() > 1) return str(args.String(1));
    if (emitted > 0 && args.size() > 2) out += args.String(2);
    return str(std::move(out));
  }
  if (id == BuiltIn::kSeqContains || id == BuiltIn::kSeqIndexOf || id == BuiltIn::kSeqLastIndexOf) {
    const bool backwards = id == BuiltIn::kSeqLastIndexOf;
    args.Need(1, id == BuiltIn::kSeqContains ? 1 : 2);
    const ValuePtr& needle = args.values[0];
    // The optional start index is clamped into the sequence; past its far end nothing is found.
    int64_t start = backwards ? static_cast<int64_t>(size) - 1 : 0;
    if (args.size() > 1) {
      const int64_t wanted = args.Number(1).LongValue();
      start = backwards ? std::min(wanted, start) : std::max<int64_t>(wanted, 0);
    }
    const size_t scanned = backwards ? static_cast<size_t>(std::max<int64_t>(start + 1, 0))
                                     : size - std::min<size_t>(size, static_cast<size_t>(start));
    int64_t found = -1;
    for (size_t k = 0; k < scanned; ++k) {
      Step(1, e->pos);
      const size_t i = backwards ? static_cast<size_t>(start) - k : static_cast<size_t>(start) + k;
      ValuePtr item = target->SequenceAt(i);
      if (!item) continue;
      bool equal = false;
      if (item->type == needle->type) {
        if (item->type == ValueType::kNumber) equal = item->number.Compare(needle->number) == 0;
        if (item->type == ValueType::kString) equal = item->str == needle->str;
        if (item->type == ValueType::kBoolean) equal = item->boolean == needle->boolean;
      }
      if (equal) {
        found = static_cast<int64_t>(i);
        break;
      }
    }
    if (id == BuiltIn::kSeqContains) return Value::Boolean(found >= 0);
    return Value::Int(found);
  }
  if (id == BuiltIn::kReverse) {
    Step(size, e->pos);
    std::vector<ValuePtr> items;
    for (size_t i = size; i-- > 0;) items.push_back(target->SequenceAt(i));
    return Value::Sequence(std::move(items));
  }
  if (id == BuiltIn::kMin || id == BuiltIn::kMax) {
    ValuePtr best;
    for (size_t i = 0; i < size; ++i) {
      Step(1, e->pos);
      ValuePtr item = target->SequenceAt(i);
      if (!item) continue;
      const Decimal& n = RequireNumber(item, target_expr);
      if (!best ||
          (id == BuiltIn::kMin ? n.Compare(best->number) < 0 : n.Compare(best->number) > 0)) {
        best = item;
      }
    }
    return best;
  }
  if (id == BuiltIn::kSort || id == BuiltIn::kSortBy) {
    Step(size * 8, e->pos);
    std::vector<ValuePtr> items;
    for (size_t i = 0; i < size; ++i) items.push_back(target->SequenceAt(i));
    std::vector<std::pair<ValuePtr, ValuePtr>> keyed;
    std::vector<std::string> path;  // ?sort_by("key") or ?sort_by(["key", "subkey"])
    if (id == BuiltIn::kSortBy) {
      args.Need(1, 1);
      if (args.values[0]->type == ValueType::kSequence) {
        for (size_t i = 0; i < args.values[0]->SequenceSize(); ++i) {
          ValuePtr part = args.values[0]->SequenceAt(i);
          if (!part || part->type != ValueType::kString)
            Fail(e->pos, "?sort_by(key): a key path must be a sequence of strings");
          path.push_back(part->str);
        }
      } else {
        path.push_back(args.String(0));
      }
    }
    for (size_t i = 0; i < items.size(); ++i) {
      ValuePtr key = items[i];
      for (size_t k = 0; k < path.size(); ++k) {
        if (!key || key->type != ValueType::kHash) {
          Fail(e->pos, "?sort_by failed at sequence index " + std::to_string(i) + ": " +
                           (k == 0 ? "sequence items must be hashes"
                                   : "the \"" + path[k - 1] + "\" subvariable is not a hash"));
        }
        key = key->HashGet(path[k]);
        if (!key) {
          Fail(e->pos, "?sort_by failed at sequence index " + std::to_string(i) + ": the \"" +
                           path[k] + "\" subvariable was null or missing");
        }
      }
      if (!key) Fail(e->pos, "?" + e->name + " found a missing value");
      keyed.emplace_back(key, items[i]);
    }
    if (!keyed.empty()) {
      const ValueType t = keyed[0].first->type;
      for (const auto& k : keyed) {
        if (k.first->type != t ||
            (t != ValueType::kNumber && t != ValueType::kString && t != ValueType::kBoolean)) {
          Fail(e->pos, "?" + e->name + " needs values of one type: all strings or all numbers");
        }
      }
      if (t == ValueType::kString) {
        for (const auto& k : keyed) {
          if (!JavaCollatorCompare(k.first->str, "")) {
            throw RenderError{"unsupported_construct",
                              "?" + e->name +
                                  " of strings with non-ASCII characters is not supported: "
                                  "FreeMarker orders them with Java's locale collation (at " +
                                  PosText(e->pos) + ")",
                              e->pos, Json{{"construct", "?" + e->name}}};
          }
        }
      }
      Step(keyed.size() * 4, e->pos);  // the comparisons
      std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
        if (a.first->type == ValueType::kNumber)
          return a.first->number.Compare(b.first->number) < 0;
        if (a.first->type == ValueType::kBoolean) return !a.first->boolean && b.first->boolean;
        return *JavaCollatorCompare(a.first->str, b.first->str) < 0;
      });
    }
    std::vector<ValuePtr> sorted;
    for (auto& k : keyed) sorted.push_back(k.second);
    return Value::Sequence(std::move(sorted));
  }
  if (id == BuiltIn::kChunk) {
    args.Need(1, 2);
    const int64_t requested = args.Number(0).LongValue();
    if (requested < 1) Fail(e->pos, "?chunk size must be at least 1");
    // Padding a short last chunk to `requested` items is paid for up front, so a huge size
    // hits the step budget before anything is allocated; the stride is clamped so index
    // arithmetic cannot wrap.
    if (args.size() > 1) Step(static_cast<uint64_t>(requested), e->pos);
    const size_t n = static_cast<size_t>(
        std::min<int64_t>(requested, static_cast<int64_t>(std::max<size_t>(size, 1))));
    // The whole result is counted before anything is allocated (a range stays lazy until
    // then): every item and every chunk.
    Step(size + (size + n - 1) / n, e->pos);
    std::vector<ValuePtr> chunks;
    for (size_t i = 0; i < size; i += n) {
      std::vector<ValuePtr> chunk;
      for (size_t j = i; j < std::min(size, i + n); ++j) chunk.push_back(target->SequenceAt(j));
      while (args.size() > 1 && chunk.size() < static_cast<size_t>(requested)) {
        chunk.push_back(args.values[1]);
      }
      chunks.push_back(Value::Sequence(std::move(chunk)));
    }
    return Value::Sequence(std::move(chunks));
  }
  // Every built-in of the family is handled above.
  Fail(e->pos, "?" + e->name + " can't be applied to a sequence");
}

// ?size ?keys ?values of a hash.
ValuePtr Evaluator::EvalHashBuiltIn(const Expr* e, const ValuePtr& target) {
  const BuiltIn id = e->builtin->id;
  if (id == BuiltIn::kSize) return Value::Int(static_cast<int64_t>(target->ReportedHashSize()));
  Step(target->HashSize(), e->pos);
  std::vector<ValuePtr> items;
  items.reserve(target->HashSize());
  for (size_t i = 0; i < target->HashSize(); ++i) {
    items.push_back(id == BuiltIn::kKeys ? Value::String(target->HashKeyAt(i))
                                         : target->HashValueAt(i));
  }
  return Value::Sequence(std::move(items));
}

}  // namespace dp::tmpl
