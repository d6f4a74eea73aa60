#pragma once
// The text/refs agreement check of semantics_record (spec §6.2.37, pipeline-contract §13.15
// semantics.ref_mismatch): every [a-z0-9_]{4,} token of the fact (and of the caller's evidence
// summary) is compared, case-folded, with the datasource's catalog listing. A token that spells
// a listed table the refs do not name adds that table to the refs; an identifier-shaped token
// (one holding '_' or a digit beside letters — prose words are never refused) within edit
// distance 2 of a listed table, without being one and without the refs naming that table, is a
// near miss.
#include <optional>
#include <string>
#include <vector>

#include "datapipelines/connectors/introspection.hpp"
#include "datapipelines/semantics/fact_ref.hpp"

namespace dp {

struct TextRefsVerdict {
  std::vector<FactRef> added;  // column-less refs the text named exactly
  // The first near miss, when there is one: the offending token and the nearest listed table.
  std::optional<std::string> mismatch_token;
  std::optional<TableInfo> suggestion;
};

class FactTextCheck {
 public:
  // `current_schema` breaks a tie between same-named tables of several schemas (after the
  // schemas the refs already use).
  static TextRefsVerdict Check(const std::vector<std::string>& texts,
                               const std::vector<TableInfo>& catalog,
                               const std::vector<FactRef>& refs, const std::string& current_schema);
  // The case-folded [a-z0-9_]{4,} tokens of `text`, in order of first appearance.
  static std::vector<std::string> Tokens(const std::string& text);
};

}  // namespace dp
