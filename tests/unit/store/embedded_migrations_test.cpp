// The migrations compiled into the binary must be byte-for-byte the .sql files on disk (a
// backend's own folder merged with common/), and both backends must carry the same numbered
// steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "datapipelines/store/migration.hpp"

namespace dp {
namespace {

namespace fs = std::filesystem;

fs::path MigrationDir(const std::string& backend) {
  return fs::path(DP_SOURCE_DIR) / "src" / "store" / "migrations" / backend;
}

std::vector<fs::path> SqlFiles(const std::string& backend) {
  std::vector<fs::path> files;
  for (const std::string& folder : {backend, std::string("common")}) {
    for (const auto& entry : fs::directory_iterator(MigrationDir(folder))) {
      if (entry.path().extension() == ".sql") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  return files;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void ExpectMatchesDisk(const std::string& backend, std::span<const Migration> embedded) {
  auto files = SqlFiles(backend);
  ASSERT_EQ(files.size(), embedded.size())
      << backend << ": every .sql file must be embedded (re-run cmake)";
  for (std::size_t i = 0; i < files.size(); ++i) {
    const Migration& m = embedded[i];
    EXPECT_EQ(files[i].stem().string(), std::string(m.name)) << backend;
    EXPECT_EQ(m.version, static_cast<int>(i) + 1) << backend << ": versions are 1, 2, 3, …";
    EXPECT_EQ(std::stoi(std::string(m.name.substr(0, 4))), m.version) << backend;
    EXPECT_EQ(ReadFile(files[i]), std::string(m.sql))
        << backend << "/" << m.name << ".sql differs from the embedded copy";
  }
}

TEST(EmbeddedMigrations, SqliteMatchesFilesOnDisk) {
  ExpectMatchesDisk("sqlite", SqliteMigrations());
}

TEST(EmbeddedMigrations, PostgresMatchesFilesOnDisk) {
  ExpectMatchesDisk("postgres", PostgresMigrations());
}

TEST(EmbeddedMigrations, BackendsAreNumberedInStep) {
  auto sqlite = SqliteMigrations();
  auto postgres = PostgresMigrations();
  ASSERT_FALSE(sqlite.empty());
  ASSERT_EQ(sqlite.size(), postgres.size());
  for (std::size_t i = 0; i < sqlite.size(); ++i) {
    EXPECT_EQ(sqlite[i].version, postgres[i].version);
    EXPECT_EQ(sqlite[i].name, postgres[i].name);
  }
}

}  // namespace
}  // namespace dp
