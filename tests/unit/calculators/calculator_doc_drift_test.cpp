// The drift guard: the code's catalog and the catalog document's tables must agree in both
// directions — kind set and order, every input's name/type/optional/list, the output type or
// named outputs, the phrases, and every worked example (its inputs, and its answer, which is
// also evaluated). docs/calculators.md is always checked (descriptions too: it is this
// product's own wording of the code's); the spec's companion catalog is checked whenever it is
// present next to the repo, and a disagreement with it FAILS rather than skips.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "datapipelines/calculators/calculator_catalog.hpp"
#include "datapipelines/calculators/calculator_evaluator.hpp"
#include "datapipelines/domain/domain_error.hpp"

namespace dp {
namespace {

const char* const kRepoDoc = DP_SOURCE_DIR "/docs/calculators.md";
const char* const kSpecDoc = DP_SOURCE_DIR "/../shared/spec/companion/calculators.md";

struct DocInput {
  std::string name, type;
  bool optional = false, list = false;
};

struct DocRow {
  std::string kind;
  std::vector<DocInput> inputs;
  std::string output_type;                                   // single output
  std::vector<std::pair<std::string, std::string>> outputs;  // multi output: name, type
  std::string description;
  std::vector<std::string> phrases;
  Json example_inputs = Json::object();
  std::string example_answer;  // as written
};

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string> SplitCells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream stream(line);
  std::string cell;
  while (std::getline(stream, cell, '|')) cells.push_back(Trim(cell));
  // "| a | b |" splits into "", a, b: drop the empty lead.
  if (!cells.empty() && cells.front().empty()) cells.erase(cells.begin());
  return cells;
}

// "a=1, b=[2, 3], c=x, y" -> {a: "1", b: "[2, 3]", c: "x, y"}: a comma starts a new pair only
// when `name=` follows it.
std::vector<std::pair<std::string, std::string>> SplitPairs(const std::string& text) {
  static const std::regex kPairStart(R"(^([a-z_][a-z0-9_]*)=)");
  std::vector<std::pair<std::string, std::string>> pairs;
  size_t pos = 0;
  while (pos < text.size()) {
    std::smatch match;
    const std::string rest = text.substr(pos);
    if (!std::regex_search(rest, match, kPairStart)) break;
    size_t value_start = pos + match.length(0);
    size_t end = value_start;
    for (;;) {
      end = text.find(", ", end);
      if (end == std::string::npos) break;
      std::smatch next;
      const std::string after = text.substr(end + 2);
      if (std::regex_search(after, next, kPairStart)) break;
      end += 2;
    }
    const size_t value_end = end == std::string::npos ? text.size() : end;
    pairs.emplace_back(match[1], Trim(text.substr(value_start, value_end - value_start)));
    pos = end == std::string::npos ? text.size() : end + 2;
  }
  return pairs;
}

// A written value read as the declared type would carry it in wire form.
Json ReadValue(const std::string& text, const std::string& type) {
  if (!text.empty() && text.front() == '[') return Json::parse(text);
  if (type == "INTEGER" || type == "DECIMAL") return Json::parse(text);
  return text;
}

DocRow ParseRow(const std::vector<std::string>& cells) {
  static const std::regex kInput(R"(`([a-z_][a-z0-9_]*)(\[\])?(\?)?` ([A-Z]+))");
  static const std::regex kOutput(R"(([a-z_][a-z0-9_]*) ([A-Z]+))");
  DocRow row;
  row.kind = cells[0].substr(1, cells[0].size() - 2);
  const std::string& signature = cells[1];
  const size_t arrow = signature.rfind("→");
  const std::string inputs = signature.substr(0, arrow);
  for (std::sregex_iterator it(inputs.begin(), inputs.end(), kInput), end; it != end; ++it) {
    row.inputs.push_back({(*it)[1], (*it)[4], (*it)[3].matched, (*it)[2].matched});
  }
  const std::string output = Trim(signature.substr(arrow + std::string("→").size()));
  if (!output.empty() && output.front() == '{') {
    for (std::sregex_iterator it(output.begin(), output.end(), kOutput), end; it != end; ++it) {
      row.outputs.emplace_back((*it)[1], (*it)[2]);
    }
  } else {
    row.output_type = output;
  }
  row.description = cells[2];
  std::stringstream phrases(cells[3]);
  for (std::string phrase; std::getline(phrases, phrase, ',');) row.phrases.push_back(Trim(phrase));
  const std::string& example = cells[4];
  const size_t answer_arrow = example.rfind("→");
  for (const auto& [name, value] : SplitPairs(Trim(example.substr(0, answer_arrow)))) {
    std::string type = "STRING";
    for (const auto& input : row.inputs) {
      if (input.name == name) type = input.type;
    }
    row.example_inputs[name] = ReadValue(value, type);
  }
  row.example_answer = Trim(example.substr(answer_arrow + std::string("→").size()));
  return row;
}

// The catalog rows of a document: table lines whose first cell is a `kind` and that have the
// five catalog columns.
std::vector<DocRow> ParseCatalogDoc(const std::string& text) {
  std::vector<DocRow> rows;
  std::stringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    const auto cells = SplitCells(line);
    if (cells.size() != 5 || cells[1].find("→") == std::string::npos) continue;
    rows.push_back(ParseRow(cells));
  }
  return rows;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The answer as a document writes it: numbers by value (25.00 == 25), strings bare, a
// multi-output answer as "start=..., end=...".
bool AnswerMatches(const Json& value, const std::string& written) {
  if (value.is_object()) {
    const auto pairs = SplitPairs(written);
    if (pairs.size() != value.size()) return false;
    for (const auto& [name, text] : pairs) {
      if (!value.contains(name) || !AnswerMatches(value[name], text)) return false;
    }
    return true;
  }
  if (value.is_number()) {
    try {
      return Json::parse(written).is_number() &&
             Json::parse(written).get<double>() == value.get<double>();
    } catch (const Json::parse_error&) {
      return false;
    }
  }
  if (value.is_string()) return value.get<std::string>() == written;
  return value.dump() == written;
}

// Examples may reference keys no test run declares ("$requested_region"): unset = null.
Json ResolveReferences(Json inputs) {
  auto resolve = [](Json& value) {
    if (value.is_string() && value.get<std::string>().rfind('$', 0) == 0) value = nullptr;
  };
  for (auto& [name, value] : inputs.items()) {
    if (value.is_array()) {
      for (auto& element : value) resolve(element);
    } else {
      resolve(value);
    }
  }
  return inputs;
}

std::vector<std::string> Disagreements(const std::vector<DocRow>& rows, bool with_descriptions) {
  std::vector<std::string> problems;
  const auto catalog = AllCalculators();
  for (const auto& row : rows) {
    if (!FindCalculator(row.kind)) problems.push_back(row.kind + ": documented but not in code");
  }
  for (size_t i = 0; i < catalog.size(); ++i) {
    const CalculatorKind& kind = catalog[i];
    const DocRow* row = nullptr;
    for (const auto& candidate : rows) {
      if (candidate.kind == kind.kind) row = &candidate;
    }
    if (!row) {
      problems.push_back(kind.kind + ": in code but not documented");
      continue;
    }
    if (i >= rows.size() || rows[i].kind != kind.kind) {
      problems.push_back(kind.kind + ": documented out of catalog order");
    }
    const std::string at = kind.kind + ": ";
    if (row->inputs.size() != kind.inputs.size()) problems.push_back(at + "input count differs");
    for (size_t j = 0; j < std::min(row->inputs.size(), kind.inputs.size()); ++j) {
      const DocInput& doc = row->inputs[j];
      const CalculatorInput& code = kind.inputs[j];
      if (doc.name != code.name || doc.type != code.type || doc.optional != code.optional ||
          doc.list != code.list) {
        problems.push_back(at + "input " + code.name + " differs (doc: " + doc.name + " " +
                           doc.type + (doc.optional ? " optional" : "") +
                           (doc.list ? " list" : "") + ")");
      }
    }
    if (kind.multi_output()) {
      std::vector<std::pair<std::string, std::string>> outputs;
      for (const auto& output : kind.outputs) outputs.emplace_back(output.name, output.type);
      if (outputs != row->outputs) problems.push_back(at + "named outputs differ");
    } else if (row->output_type != kind.output_type) {
      problems.push_back(at + "output type differs (doc: " + row->output_type + ")");
    }
    if (row->phrases != kind.phrases) problems.push_back(at + "phrases differ");
    if (with_descriptions && row->description != kind.description) {
      problems.push_back(at + "description differs");
    }
    if (row->example_inputs != kind.example_inputs) {
      problems.push_back(at + "example inputs differ (doc: " + row->example_inputs.dump() + ")");
    }
    if (!AnswerMatches(kind.example_output, row->example_answer)) {
      problems.push_back(at + "example answer differs (doc: " + row->example_answer + ")");
    }
    try {
      const Json evaluated =
          EvaluateCalculator(kind, ResolveReferences(row->example_inputs), CalculatorEnvironment{});
      if (!AnswerMatches(evaluated, row->example_answer)) {
        problems.push_back(at + "the documented example evaluates to " + evaluated.dump() +
                           ", not " + row->example_answer);
      }
    } catch (const DomainError& error) {
      problems.push_back(at + "the documented example fails: " + error.what());
    }
  }
  return problems;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += "\n  " + line;
  return out;
}

TEST(CalculatorDocDriftTest, RepoCatalogDocumentMatchesTheCode) {
  const std::string text = ReadFile(kRepoDoc);
  ASSERT_FALSE(text.empty()) << kRepoDoc;
  const auto rows = ParseCatalogDoc(text);
  EXPECT_EQ(rows.size(), AllCalculators().size());
  const auto problems = Disagreements(rows, true);
  EXPECT_TRUE(problems.empty()) << "docs/calculators.md disagrees with the code:" << Join(problems);
}

TEST(CalculatorDocDriftTest, SpecCatalogMatchesTheCodeWhenPresent) {
  if (!std::filesystem::exists(kSpecDoc)) {
    GTEST_SKIP() << "no spec checkout beside the repo; docs/calculators.md is the guard";
  }
  const auto rows = ParseCatalogDoc(ReadFile(kSpecDoc));
  EXPECT_EQ(rows.size(), AllCalculators().size());
  const auto problems = Disagreements(rows, false);
  EXPECT_TRUE(problems.empty()) << "the spec's catalog disagrees with the code:" << Join(problems);
}

// The guard itself: each kind of drift, in either direction, is caught.
TEST(CalculatorDocDriftTest, EveryKindOfDriftIsCaught) {
  const std::string text = ReadFile(kRepoDoc);
  ASSERT_FALSE(text.empty());
  auto drifted = [&text](const std::string& from, const std::string& to) {
    std::string changed = text;
    const size_t at = changed.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) changed.replace(at, from.size(), to);
    return Disagreements(ParseCatalogDoc(changed), true);
  };
  EXPECT_FALSE(drifted("`iso_week` | `date` DATE → INTEGER", "`iso_week2` | `date` DATE → INTEGER")
                   .empty());  // a kind renamed: one missing, one unknown
  EXPECT_FALSE(drifted("| `iso_year` |", "| `not_a_table_row` |").empty());
  EXPECT_FALSE(drifted("`offset?` INTEGER", "`offset` INTEGER").empty());           // optional flag
  EXPECT_FALSE(drifted("`holidays[]?` DATE", "`holidays?` DATE").empty());          // list flag
  EXPECT_FALSE(drifted("`days` INTEGER → DATE", "`days` DECIMAL → DATE").empty());  // type
  EXPECT_FALSE(drifted("`date` DATE → INTEGER | The calendar quarter",
                       "`date` DATE → STRING | The calendar quarter")
                   .empty());  // output type
  EXPECT_FALSE(drifted("→ {start DATE, end DATE}", "→ {first DATE, end DATE}").empty());
  EXPECT_FALSE(drifted("what quarter is it", "what quarter is this").empty());  // phrase
  EXPECT_FALSE(drifted("→ 2026-02-28 |", "→ 2026-03-03 |").empty());            // answer
  EXPECT_FALSE(drifted("places=2 → 25.00", "places=2 → 25.01").empty());
  EXPECT_FALSE(drifted("date=2028-02-10 → 29", "date=2026-02-10 → 29").empty());  // input
  // Zero-padded decimals are the same answer.
  EXPECT_TRUE(drifted("places=2 → 25.00", "places=2 → 25").empty());
}

}  // namespace
}  // namespace dp
