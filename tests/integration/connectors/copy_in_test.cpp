// Connection::CopyIn against real PostgreSQL 15: every awkward value (tabs, newlines, carriage
// returns, backslashes, a literal "\N", empty text, NULL, multi-byte UTF-8) round-trips exactly;
// rows split across many fill calls all arrive; failures leave the session usable. SQLite and
// MariaDB report the capability as absent without calling `fill`.
#include <unistd.h>

#include <stdexcept>

#include "connector_test_support.hpp"
#include "datapipelines/connectors/wire/copy_text.hpp"

namespace dp::test {
namespace {

using Row = std::vector<std::optional<std::string>>;

// (label, value): nullopt is SQL NULL.
const std::vector<std::pair<std::string, std::optional<std::string>>> kCases = {
    {"plain", "hello"},
    {"tab", "a\tb"},
    {"newline", "line1\nline2"},
    {"carriage_return", "a\r\nb"},
    {"backslash", "C:\\path\\file"},
    {"trailing_backslash", "ends with \\"},
    {"backslash_t_text", "not a tab: \\t"},
    {"literal_backslash_N", "\\N"},
    {"empty", ""},
    {"null", std::nullopt},
    {"unicode", "Zürich – 東京 – 🚕"},
    {"quotes", "it's \"quoted\""},
    {"mixed", "\t\\\n\\N\r"},
};

class CopyInTest : public PostgresConnectorTest {
 protected:
  void SetUp() override {
    PostgresConnectorTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    table_ = "dp_copy_in_" + std::to_string(::getpid());
    session_ = connector_->Open();
    session_->Execute("DROP TABLE IF EXISTS " + table_);
    session_->Execute("CREATE TABLE " + table_ + " (id INTEGER, label TEXT, \"va\"\"lue\" TEXT)");
  }
  void TearDown() override {
    if (session_) session_->Execute("DROP TABLE IF EXISTS " + table_);
  }

  std::vector<Row> ReadBack() {
    std::vector<Row> rows;
    session_->Query(
        "SELECT id::text AS k, label, \"va\"\"lue\" FROM " + table_ + " ORDER BY id", {}, {},
        [&](const RowView& row) {
          Row out;
          for (int i = 0; i < 3; ++i) {
            out.push_back(row.is_null(i) ? std::nullopt : std::optional(std::string(*row.text(i))));
          }
          rows.push_back(std::move(out));
          return true;
        });
    return rows;
  }

  std::string table_;
  std::unique_ptr<Connection> session_;
};

TEST_F(CopyInTest, EveryAwkwardValueRoundTripsExactly) {
  std::vector<Row> sent;
  for (std::size_t i = 0; i < kCases.size(); ++i) {
    sent.push_back({std::to_string(i + 1), kCases[i].first, kCases[i].second});
  }
  int calls = 0;
  ASSERT_TRUE(session_->CopyIn(table_, {"id", "label", "va\"lue"}, [&](std::string& buffer) {
    copy_text::AppendRow(buffer, sent[calls]);  // one row per call: many PQputCopyData
    return ++calls < static_cast<int>(sent.size());
  }));
  EXPECT_EQ(calls, static_cast<int>(sent.size()));
  std::vector<Row> got = ReadBack();
  ASSERT_EQ(got.size(), sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(got[i], sent[i]) << "case " << kCases[i].first;
  }
}

TEST_F(CopyInTest, LargeStreamInChunksArrivesComplete) {
  constexpr int kRows = 50000;
  int next = 0;
  ASSERT_TRUE(session_->CopyIn(table_, {"id", "label", "va\"lue"}, [&](std::string& buffer) {
    while (next < kRows && buffer.size() < 64 * 1024) {
      ++next;
      copy_text::AppendRow(
          buffer,
          {std::to_string(next), "row\t" + std::to_string(next),
           next % 7 ? std::optional<std::string>("ü\\" + std::to_string(next)) : std::nullopt});
    }
    return next < kRows;
  }));
  std::string summary;
  session_->Query(
      "SELECT COUNT(*) || '/' || COUNT(\"va\"\"lue\") || '/' || SUM(id) || '/' || "
      "MAX(length(label)) FROM " +
          table_,
      {}, {}, [&](const RowView& row) {
        summary = std::string(*row.text(0));
        return false;
      });
  // 50000 rows, every 7th value NULL, ids 1…50000, longest label "row\t50000".
  EXPECT_EQ(summary, "50000/42858/1250025000/9");
}

TEST_F(CopyInTest, EmptyStreamCopiesNothing) {
  ASSERT_TRUE(session_->CopyIn(table_, {}, [](std::string&) { return false; }));
  EXPECT_TRUE(ReadBack().empty());
}

TEST_F(CopyInTest, RejectedRowsFailAndLeaveTheSessionUsable) {
  auto error = CatchDomainError([&] {
    session_->CopyIn(table_, {"id", "label"}, [](std::string& buffer) {
      buffer += "1\tok\nnot-a-number\tbad\n";
      return false;
    });
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->code().code, errc::kNodeQueryFailed.code);
  EXPECT_TRUE(ReadBack().empty());  // COPY is all or nothing
  EXPECT_FALSE(session_->broken());
}

TEST_F(CopyInTest, MissingTableFailsBeforeFillIsCalled) {
  bool called = false;
  auto error = CatchDomainError([&] {
    session_->CopyIn(table_ + "_missing", {}, [&](std::string&) {
      called = true;
      return false;
    });
  });
  ASSERT_TRUE(error);
  EXPECT_FALSE(called);
  EXPECT_EQ(session_->Execute("INSERT INTO " + table_ + " (id) VALUES (1)"), 1);
}

TEST_F(CopyInTest, ThrowingFillAbortsTheCopyAndPropagates) {
  int calls = 0;
  EXPECT_THROW(session_->CopyIn(table_, {"id"},
                                [&](std::string& buffer) -> bool {
                                  if (++calls == 2) throw std::runtime_error("generator failed");
                                  buffer += "1\n";
                                  return true;
                                }),
               std::runtime_error);
  EXPECT_TRUE(ReadBack().empty());
  EXPECT_EQ(session_->Execute("INSERT INTO " + table_ + " (id) VALUES (2)"), 1);
}

// Other engines: the capability is absent, and `fill` is never called.
void ExpectNoBulkPath(Connector& connector) {
  auto session = connector.Open();
  bool called = false;
  EXPECT_FALSE(session->CopyIn("t", {"a"}, [&](std::string&) {
    called = true;
    return false;
  }));
  EXPECT_FALSE(called);
}

TEST_F(SqliteConnectorTest, CopyInIsUnsupported) { ExpectNoBulkPath(*connector_); }
TEST_F(MysqlConnectorTest, CopyInIsUnsupported) { ExpectNoBulkPath(*connector_); }

}  // namespace
}  // namespace dp::test
