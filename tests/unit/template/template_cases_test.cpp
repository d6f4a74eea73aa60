// Data-driven golden cases (tests/template_cases/<case>/): every case renders through our
// engine and must produce exactly expected.txt, or fail with the code in expected_error.txt.
// The same cases run through Apache FreeMarker 2.3.31 in the template_oracle test, so
// expected.txt is what FreeMarker produces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/template/evaluation/template_renderer.hpp"
#include "datapipelines/template/syntax/template_parser.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

// DP_TEMPLATE_CASES_DIR runs another folder of cases (e.g. a randomised differential batch
// whose expectations the oracle wrote: tools/freemarker-oracle/random_*_cases.py).
fs::path CasesDir() {
  if (const char* dir = std::getenv("DP_TEMPLATE_CASES_DIR"); dir && *dir) return dir;
  return fs::path(DP_SOURCE_DIR) / "tests" / "template_cases";
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(CasesDir())) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Parses and renders one case; returns the output or throws DomainError.
std::string RunCase(const fs::path& dir, const Json& options) {
  ParseOptions parse_options;
  parse_options.mode =
      options.value("mode", "sql") == "html" ? TemplateMode::kHtml : TemplateMode::kSql;
  parse_options.name = dir.filename().string();
  ParsedTemplate tmpl = TemplateParser::Parse(ReadFile(dir / "template.ftl"), parse_options);
  std::vector<ParsedTemplate> libraries;
  std::vector<std::string> aliases;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("lib_", 0) == 0 && entry.path().extension() == ".ftl") {
      ParseOptions lib_options = parse_options;
      lib_options.name = file;
      libraries.push_back(TemplateParser::Parse(ReadFile(entry.path()), lib_options));
      aliases.push_back(file.substr(4, file.size() - 8));
    }
  }
  std::map<std::string, const ParsedTemplate*> bound;
  for (size_t i = 0; i < libraries.size(); ++i) bound[aliases[i]] = &libraries[i];
  Json data =
      fs::exists(dir / "data.json") ? Json::parse(ReadFile(dir / "data.json")) : Json::object();
  RenderOptions render_options;
  if (options.contains("max_steps"))
    render_options.max_steps = options["max_steps"].get<uint64_t>();
  if (options.contains("max_output_bytes")) {
    render_options.max_output_bytes = options["max_output_bytes"].get<size_t>();
  }
  if (options.contains("max_memory_bytes")) {
    render_options.max_memory_bytes = options["max_memory_bytes"].get<size_t>();
  }
  if (options.contains("timeout_ms"))
    render_options.timeout_ms = options["timeout_ms"].get<int64_t>();
  if (options.contains("max_number_digits")) {
    render_options.max_number_digits = options["max_number_digits"].get<int>();
  }
  return TemplateRenderer::Render(tmpl, data, render_options, bound);
}

class TemplateCaseTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TemplateCaseTest, MatchesExpectation) {
  const fs::path dir = CasesDir() / GetParam();
  const Json options = fs::exists(dir / "options.json")
                           ? Json::parse(ReadFile(dir / "options.json"))
                           : Json::object();
  if (fs::exists(dir / "expected.txt")) {
    std::string output;
    try {
      output = RunCase(dir, options);
    } catch (const DomainError& error) {
      FAIL() << "unexpected " << error.code().code << ": " << error.what();
    }
    EXPECT_EQ(output, ReadFile(dir / "expected.txt"));
    return;
  }
  ASSERT_TRUE(fs::exists(dir / "expected_error.txt")) << "case has no expectation";
  std::istringstream expected(ReadFile(dir / "expected_error.txt"));
  std::string code, reason;
  std::getline(expected, code);
  std::getline(expected, reason);
  try {
    const std::string output = RunCase(dir, options);
    FAIL() << "expected " << code << " but rendered:\n" << output;
  } catch (const DomainError& error) {
    EXPECT_EQ(error.code().code, code) << error.what();
    if (!reason.empty()) {
      EXPECT_EQ(error.details().value("reason", ""), reason) << error.what();
    }
    // Syntax errors and undefined variables point at a place in the source.
    if (code == "template.validation.syntax_error" ||
        error.details().value("reason", "") == "undefined_variable") {
      EXPECT_GT(error.details().value("line", 0), 0) << error.what();
      EXPECT_GT(error.details().value("column", 0), 0) << error.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, TemplateCaseTest, ::testing::ValuesIn(CaseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(TemplateCases, AtLeastTwoHundred) { EXPECT_GE(CaseNames().size(), 200u); }

}  // namespace
}  // namespace dp
