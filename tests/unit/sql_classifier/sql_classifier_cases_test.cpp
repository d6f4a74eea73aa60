// Data-driven corpus for the sql_probe read-only classifier (spec §6.2.34):
// tests/sql_classifier_cases/*.json, each an array of {"sql", "admitted", "refused_token"?,
// "note"}. Every case must classify exactly as recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "datapipelines/domain/sql_statement_classifier.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

struct ClassifierCase {
  std::string file;
  std::size_t index = 0;
  Json body;
};

// gtest prints the parameter on failure; the file and index are what locate it.
void PrintTo(const ClassifierCase& c, std::ostream* os) { *os << c.file << "[" << c.index << "]"; }

fs::path CasesDir() { return fs::path(DP_SOURCE_DIR) / "tests" / "sql_classifier_cases"; }

Json ReadJson(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return Json::parse(buffer.str());
}

std::vector<ClassifierCase> LoadCases() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(CasesDir())) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<ClassifierCase> cases;
  for (const auto& file : files) {
    Json array = ReadJson(file);
    for (std::size_t i = 0; i < array.size(); ++i) {
      cases.push_back({file.stem().string(), i, array[i]});
    }
  }
  return cases;
}

const std::vector<ClassifierCase>& AllCases() {
  static const std::vector<ClassifierCase> cases = LoadCases();
  return cases;
}

class SqlClassifierCaseTest : public ::testing::TestWithParam<ClassifierCase> {};

TEST_P(SqlClassifierCaseTest, ClassifiesAsRecorded) {
  const Json& c = GetParam().body;
  const std::string sql = c.at("sql").get<std::string>();
  SCOPED_TRACE("sql: " + sql + "\nnote: " + c.value("note", ""));
  SqlStatementVerdict verdict = SqlStatementClassifier::Classify(sql);
  ASSERT_EQ(verdict.admitted, c.at("admitted").get<bool>()) << "reason: " << verdict.reason;
  if (verdict.admitted) {
    EXPECT_TRUE(verdict.reason.empty());
    EXPECT_TRUE(verdict.refused_token.empty());
    return;
  }
  EXPECT_FALSE(verdict.reason.empty());
  if (c.contains("refused_token")) {
    EXPECT_EQ(verdict.refused_token, c["refused_token"].get<std::string>())
        << "reason: " << verdict.reason;
  }
}

std::string CaseName(const ::testing::TestParamInfo<ClassifierCase>& info) {
  return info.param.file + "_" + std::to_string(info.param.index);
}

INSTANTIATE_TEST_SUITE_P(Corpus, SqlClassifierCaseTest, ::testing::ValuesIn(AllCases()), CaseName);

TEST(SqlClassifierCorpus, HasAtLeast120CasesCoveringBothOutcomes) {
  const auto& cases = AllCases();
  EXPECT_GE(cases.size(), 120u);
  auto admitted = std::count_if(cases.begin(), cases.end(), [](const ClassifierCase& c) {
    return c.body.at("admitted").get<bool>();
  });
  EXPECT_GE(admitted, 40);
  EXPECT_GE(static_cast<long>(cases.size()) - admitted, 80);
}

// The reason is a sentence for the agent; it never echoes the statement text back.
TEST(SqlClassifierCorpus, RefusalReasonNamesTheVerbButNotTheStatement) {
  SqlStatementVerdict v = SqlStatementClassifier::Classify("SELECT 'secret_marker'; DROP TABLE t");
  EXPECT_FALSE(v.admitted);
  EXPECT_EQ(v.refused_token, "DROP");
  EXPECT_NE(v.reason.find("DROP"), std::string::npos);
  EXPECT_EQ(v.reason.find("secret_marker"), std::string::npos);
}

}  // namespace
}  // namespace dp
