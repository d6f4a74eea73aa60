#pragma once
// The read-only gate of sql_probe (spec §6.2.34): a conservative token scan that admits
// exactly one SELECT/WITH statement with no denylisted verb anywhere in it. It runs before
// any connection opens. False positives err toward refusal; a side-effecting function call
// is NOT caught — the datasource's own DB-user privileges remain the last line.
#include <string>
#include <string_view>

namespace dp {

struct SqlStatementVerdict {
  bool admitted = false;
  std::string reason;         // human sentence when refused, "" when admitted
  std::string refused_token;  // the denylisted verb (or "FOR UPDATE"/"FOR SHARE"), or ""
};

class SqlStatementClassifier {
 public:
  // The statement is lexed under every supported engine's rules (PostgreSQL, MySQL/MariaDB,
  // SQLite, and their escape-mode variants) and admitted only when every reading admits
  // it, so no quoting or comment ambiguity between engines can hide a second statement.
  static SqlStatementVerdict Classify(std::string_view sql);
};

}  // namespace dp
