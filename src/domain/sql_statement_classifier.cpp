#include "datapipelines/domain/sql_statement_classifier.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

namespace dp {
namespace {

// How one engine lexes quotes and comments. The engines disagree exactly where a statement
// could read as harmless on one and as two statements on another, so every reading must admit.
struct LexProfile {
  std::string_view name;
  bool backslash_in_strings;  // '…' strings honour backslash escapes
  bool escape_strings;        // E'…' strings honour backslash escapes (PostgreSQL)
  bool backslash_in_double;   // "…" is a backslash-escaped string (MySQL)
  bool dollar_quotes;         // $tag$…$tag$ (PostgreSQL)
  bool nested_comments;       // /* /* */ */ nests (PostgreSQL)
  bool hash_comments;         // # runs to end of line (MySQL)
  bool dash_needs_space;      // -- opens a comment only before whitespace (MySQL)
  bool bracket_identifiers;   // [name] is a quoted identifier (SQLite)
};

constexpr std::array<LexProfile, 5> kProfiles = {{
    {"PostgreSQL", false, true, false, true, true, false, false, false},
    {"PostgreSQL with standard_conforming_strings off", true, true, false, true, true, false, false,
     false},
    {"MySQL/MariaDB", true, false, true, false, false, true, true, false},
    {"MySQL/MariaDB with NO_BACKSLASH_ESCAPES", false, false, false, false, false, true, true,
     false},
    {"SQLite", false, false, false, false, false, false, false, true},
}};

// Verbs that have no business in a read-only probe. Only tokens outside strings, quoted
// identifiers and comments count; a column really named like one of these must be quoted.
constexpr std::array<std::string_view, 56> kDenylist = {
    "INSERT",   "UPDATE",   "DELETE",    "MERGE",      "UPSERT",     "REPLACE", "DROP",
    "CREATE",   "ALTER",    "TRUNCATE",  "RENAME",     "GRANT",      "REVOKE",  "ATTACH",
    "DETACH",   "COPY",     "EXPLAIN",   "INTO",       "CALL",       "EXEC",    "EXECUTE",
    "DO",       "SET",      "RESET",     "LOCK",       "VACUUM",     "ANALYZE", "PRAGMA",
    "LOAD",     "INSTALL",  "UNLOAD",    "HANDLER",    "SHOW",       "USE",     "BEGIN",
    "COMMIT",   "ROLLBACK", "SAVEPOINT", "PREPARE",    "DEALLOCATE", "LISTEN",  "NOTIFY",
    "REFRESH",  "CLUSTER",  "REINDEX",   "CHECKPOINT", "KILL",       "OUTFILE", "DUMPFILE",
    "UNLISTEN", "DISCARD",  "REASSIGN",  "FLUSH",      "SHUTDOWN",   "ANALYSE", "IMPORT"};

enum class TokenKind { kWord, kSemicolon, kOpenParen, kOther };

struct Token {
  TokenKind kind;
  std::string text;  // upper-cased for words, empty otherwise
};

bool IsIdentStart(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || u == '_' || u >= 0x80;
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c) || c == '$'; }
bool IsSpace(char c) { return static_cast<unsigned char>(c) <= 0x20 && c != '\0'; }

std::string Upper(std::string_view word) {
  std::string out(word);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

// Splits sql into tokens under one profile; a lexing ambiguity is a refusal.
class Lexer {
 public:
  Lexer(std::string_view sql, const LexProfile& profile) : sql_(sql), p_(profile) {}

  // The refusal sentence, or nullopt when the whole text lexed cleanly.
  std::optional<std::string> Run() {
    while (pos_ < sql_.size() && !error_) Step();
    return error_;
  }
  const std::vector<Token>& tokens() const { return tokens_; }

 private:
  char At(std::size_t i) const { return i < sql_.size() ? sql_[i] : '\0'; }
  void Fail(std::string_view what) {
    error_ = std::string("the statement has ") + std::string(what) + " when read as " +
             std::string(p_.name) + "; it is refused rather than guessed at";
  }
  void Push(TokenKind kind, std::string text = "") { tokens_.push_back({kind, std::move(text)}); }

  void Step() {
    char c = sql_[pos_];
    if (c == '\0') return Fail("a NUL byte");
    if (IsSpace(c)) return void(++pos_);
    if (StartsLineComment()) return SkipLineComment();
    if (c == '/' && At(pos_ + 1) == '*') return SkipBlockComment();
    if (c == '\'') return SkipQuoted('\'', p_.backslash_in_strings, "an unterminated string");
    if (c == '"') return SkipQuoted('"', p_.backslash_in_double, "an unterminated \"…\" quote");
    if (c == '`') return SkipQuoted('`', false, "an unterminated `identifier`");
    if (c == '[' && p_.bracket_identifiers) return SkipBracket();
    if (c == '$' && p_.dollar_quotes) return LexDollar();
    if (IsIdentStart(c)) return LexWord();
    if (IsDigit(c)) return LexNumber();
    ++pos_;
    if (c == ';') return Push(TokenKind::kSemicolon);
    if (c == '(') return Push(TokenKind::kOpenParen);
    Push(TokenKind::kOther);
  }

  bool StartsLineComment() const {
    char c = sql_[pos_];
    if (c == '#') return p_.hash_comments;
    if (c != '-' || At(pos_ + 1) != '-') return false;
    // MySQL reads "--x" as two minus signs; only "-- " (or "--" at the end) is a comment.
    return !p_.dash_needs_space || pos_ + 2 >= sql_.size() || IsSpace(At(pos_ + 2));
  }

  // Ends at \n or \r in every profile: ending a comment early only exposes more text to the scan.
  void SkipLineComment() {
    while (pos_ < sql_.size() && sql_[pos_] != '\n' && sql_[pos_] != '\r') ++pos_;
  }

  void SkipBlockComment() {
    // /*! … */ and /*M! … */ are executed by MySQL/MariaDB: a comment that is code.
    if (At(pos_ + 2) == '!' || (At(pos_ + 2) == 'M' && At(pos_ + 3) == '!')) {
      error_ =
          "MySQL/MariaDB executable comments (/*! … */) run their contents as SQL and are "
          "refused";
      return;
    }
    int depth = 1;
    pos_ += 2;
    while (pos_ < sql_.size() && depth > 0) {
      if (sql_[pos_] == '*' && At(pos_ + 1) == '/') {
        --depth;
        pos_ += 2;
      } else if (p_.nested_comments && sql_[pos_] == '/' && At(pos_ + 1) == '*') {
        ++depth;
        pos_ += 2;
      } else {
        ++pos_;
      }
    }
    if (depth > 0) Fail("an unterminated /* comment");
  }

  // A quoted run; a doubled quote is an escaped quote, and so is \<quote> when backslash.
  void SkipQuoted(char quote, bool backslash, std::string_view unterminated) {
    for (std::size_t i = pos_ + 1; i < sql_.size(); ++i) {
      if (backslash && sql_[i] == '\\') {
        ++i;
      } else if (sql_[i] == quote) {
        if (At(i + 1) != quote) {
          pos_ = i + 1;
          return Push(TokenKind::kOther);
        }
        ++i;
      }
    }
    Fail(unterminated);
  }

  void SkipBracket() {
    std::size_t close = sql_.find(']', pos_);
    if (close == std::string_view::npos) return Fail("an unterminated [identifier]");
    pos_ = close + 1;
    Push(TokenKind::kOther);
  }

  // $1 is a parameter, $tag$ opens a dollar quote that must close with the same tag.
  void LexDollar() {
    std::size_t end = pos_ + 1;
    if (IsDigit(At(end))) {
      while (IsDigit(At(end))) ++end;
    } else {
      while (end < sql_.size() &&
             (IsIdentStart(sql_[end]) || (end > pos_ + 1 && IsDigit(sql_[end]))))
        ++end;
      if (At(end) == '$') {
        std::string_view tag = sql_.substr(pos_, end - pos_ + 1);
        std::size_t close = sql_.find(tag, end + 1);
        if (close == std::string_view::npos) return Fail("an unterminated dollar-quoted string");
        end = close + tag.size();
      } else {
        end = pos_ + 1;  // a stray $: one punctuation character
      }
    }
    pos_ = end;
    Push(TokenKind::kOther);
  }

  void LexWord() {
    std::size_t start = pos_;
    while (pos_ < sql_.size() && IsIdentChar(sql_[pos_])) ++pos_;
    std::string_view word = sql_.substr(start, pos_ - start);
    if (p_.escape_strings && (word == "E" || word == "e") && At(pos_) == '\'') {
      return SkipQuoted('\'', true, "an unterminated E'…' string");
    }
    Push(TokenKind::kWord, Upper(word));
  }

  // Digits, fraction, exponent. Letters right after a number start a new word: some engines
  // read "1into" as 1 INTO, so the scan does too.
  void LexNumber() {
    while (IsDigit(At(pos_))) ++pos_;
    if (At(pos_) == '.') {
      ++pos_;
      while (IsDigit(At(pos_))) ++pos_;
    }
    bool sign = At(pos_ + 1) == '+' || At(pos_ + 1) == '-';
    if ((At(pos_) == 'e' || At(pos_) == 'E') && IsDigit(At(pos_ + (sign ? 2 : 1)))) {
      pos_ += sign ? 2 : 1;
      while (IsDigit(At(pos_))) ++pos_;
    }
    Push(TokenKind::kOther);
  }

  std::string_view sql_;
  const LexProfile& p_;
  std::size_t pos_ = 0;
  std::vector<Token> tokens_;
  std::optional<std::string> error_;
};

bool IsWord(const std::vector<Token>& t, std::size_t i, std::string_view word) {
  return i < t.size() && t[i].kind == TokenKind::kWord && t[i].text == word;
}

// FOR UPDATE / FOR NO KEY UPDATE / FOR SHARE / FOR KEY SHARE: the token before i is a locking
// clause prefix.
bool AfterFor(const std::vector<Token>& t, std::size_t i) {
  if (i >= 1 && IsWord(t, i - 1, "FOR")) return true;
  if (i >= 2 && IsWord(t, i - 1, "KEY") && IsWord(t, i - 2, "FOR")) return true;
  return i >= 3 && IsWord(t, i - 1, "KEY") && IsWord(t, i - 2, "NO") && IsWord(t, i - 3, "FOR");
}

// The refused token at i, or "" when the word there is allowed.
std::string DeniedAt(const std::vector<Token>& t, std::size_t i) {
  const std::string& word = t[i].text;
  if (word == "SHARE") return AfterFor(t, i) ? "FOR SHARE" : "";
  if (std::find(kDenylist.begin(), kDenylist.end(), word) == kDenylist.end()) return "";
  // REPLACE(…) and TRUNCATE(…) are the string/numeric functions; neither statement form can
  // be followed by a parenthesis.
  bool call = i + 1 < t.size() && t[i + 1].kind == TokenKind::kOpenParen;
  if ((word == "REPLACE" || word == "TRUNCATE") && call) return "";
  if (word == "UPDATE" && AfterFor(t, i)) return "FOR UPDATE";
  return word;
}

SqlStatementVerdict Refuse(std::string reason, std::string token = "") {
  return {false, std::move(reason), std::move(token)};
}

std::optional<SqlStatementVerdict> CheckDenylist(const std::vector<Token>& t) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind != TokenKind::kWord) continue;
    std::string denied = DeniedAt(t, i);
    if (denied.empty()) continue;
    return Refuse("sql_probe runs one read-only SELECT or WITH statement; the keyword " + denied +
                      " is refused anywhere in it (quote the name if it is a column or table)",
                  denied);
  }
  return std::nullopt;
}

std::optional<SqlStatementVerdict> CheckSingleStatement(const std::vector<Token>& t) {
  auto semicolon = std::find_if(t.begin(), t.end(),
                                [](const Token& tok) { return tok.kind == TokenKind::kSemicolon; });
  if (semicolon == t.end() || semicolon + 1 == t.end()) return std::nullopt;
  return Refuse(
      "sql_probe runs exactly one statement; text follows the ';' that ends the first one");
}

std::optional<SqlStatementVerdict> CheckLeadingKeyword(const std::vector<Token>& t) {
  auto first = std::find_if(t.begin(), t.end(),
                            [](const Token& tok) { return tok.kind != TokenKind::kOpenParen; });
  if (first == t.end() || first->kind == TokenKind::kSemicolon) {
    return Refuse("the statement is empty: sql_probe needs one SELECT or WITH statement");
  }
  if (first->kind == TokenKind::kWord && (first->text == "SELECT" || first->text == "WITH")) {
    return std::nullopt;
  }
  std::string starts = first->kind == TokenKind::kWord ? first->text : "a non-keyword token";
  return Refuse("sql_probe runs only a SELECT or WITH statement; this one starts with " + starts);
}

SqlStatementVerdict ClassifyAs(std::string_view sql, const LexProfile& profile) {
  Lexer lexer(sql, profile);
  if (auto error = lexer.Run()) return Refuse(*error);
  const std::vector<Token>& tokens = lexer.tokens();
  if (auto v = CheckDenylist(tokens)) return *v;
  if (auto v = CheckSingleStatement(tokens)) return *v;
  if (auto v = CheckLeadingKeyword(tokens)) return *v;
  return {true, "", ""};
}

}  // namespace

SqlStatementVerdict SqlStatementClassifier::Classify(std::string_view sql) {
  for (const LexProfile& profile : kProfiles) {
    SqlStatementVerdict verdict = ClassifyAs(sql, profile);
    if (!verdict.admitted) return verdict;
  }
  return {true, "", ""};
}

}  // namespace dp
