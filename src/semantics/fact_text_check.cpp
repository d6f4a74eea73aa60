#include "datapipelines/semantics/fact_text_check.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "datapipelines/util/ascii.hpp"
#include "datapipelines/util/edit_distance.hpp"

namespace dp {
namespace {

bool IsTokenChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

bool IdentifierShaped(const std::string& token) {
  bool letter = false, digit = false, underscore = false;
  for (char c : token) {
    letter = letter || (c >= 'a' && c <= 'z');
    digit = digit || (c >= '0' && c <= '9');
    underscore = underscore || c == '_';
  }
  return underscore || (digit && letter);
}

// The listed table to add for `name`: one in a schema the refs already use, else in the
// current schema, else the first listed.
const TableInfo& Pick(const std::vector<const TableInfo*>& candidates,
                      const std::vector<FactRef>& refs, const std::string& current_schema) {
  for (const auto& ref : refs) {
    for (const TableInfo* info : candidates) {
      if (info->schema == ref.schema) return *info;
    }
  }
  for (const TableInfo* info : candidates) {
    if (info->schema == current_schema) return *info;
  }
  return *candidates.front();
}

}  // namespace

std::vector<std::string> FactTextCheck::Tokens(const std::string& text) {
  std::string lower = AsciiLower(text);
  std::vector<std::string> tokens;
  std::set<std::string> seen;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= lower.size(); ++i) {
    if (i < lower.size() && IsTokenChar(lower[i])) continue;
    if (i - start >= 4) {
      std::string token = lower.substr(start, i - start);
      if (seen.insert(token).second) tokens.push_back(std::move(token));
    }
    start = i + 1;
  }
  return tokens;
}

TextRefsVerdict FactTextCheck::Check(const std::vector<std::string>& texts,
                                     const std::vector<TableInfo>& catalog,
                                     const std::vector<FactRef>& refs,
                                     const std::string& current_schema) {
  TextRefsVerdict verdict;
  std::map<std::string, std::vector<const TableInfo*>> listed;  // case-folded name → tables
  for (const auto& info : catalog) listed[AsciiLower(info.name)].push_back(&info);
  std::set<std::string> named;  // case-folded tables the refs hold
  for (const auto& ref : refs) named.insert(AsciiLower(ref.table));
  for (const auto& text : texts) {
    for (const std::string& token : Tokens(text)) {
      if (auto it = listed.find(token); it != listed.end()) {
        if (named.insert(token).second) {
          const TableInfo& table = Pick(it->second, refs, current_schema);
          verdict.added.push_back(FactRef{table.schema, table.name, ""});
        }
        continue;
      }
      if (!IdentifierShaped(token)) continue;
      const TableInfo* nearest = nullptr;
      std::size_t best = 3;  // within an edit distance of 2
      for (const auto& info : catalog) {
        std::size_t distance = EditDistance(token, AsciiLower(info.name));
        if (distance < best) {
          best = distance;
          nearest = &info;
        }
      }
      if (!nearest || named.count(AsciiLower(nearest->name))) continue;
      verdict.mismatch_token = token;
      verdict.suggestion = *nearest;
      return verdict;
    }
  }
  return verdict;
}

}  // namespace dp
