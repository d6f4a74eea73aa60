// The migrations are the .sql files under src/store/migrations/, compiled into the binary by
// cmake/embed_files.cmake (EmbeddedMigrationFiles). A step whose SQL is the same on both
// backends is written once, in common/; only a step that really differs (identity columns,
// regular expressions, SQLite's table rebuild for a changed CHECK) has one file per backend.
// A backend's steps are common/ and its own folder, merged by number.
#include "datapipelines/store/migration.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "datapipelines/util/embedded_file.hpp"

namespace dp {
namespace {

constexpr std::string_view kCommonFolder = "common";

// "sqlite/0001_init.sql" → "0001_init" when `path` lies directly in `folder`.
std::optional<std::string_view> StemIn(std::string_view path, std::string_view folder) {
  if (path.size() <= folder.size() + 1 || path.substr(0, folder.size()) != folder ||
      path[folder.size()] != '/') {
    return std::nullopt;
  }
  std::string_view stem = path.substr(folder.size() + 1);
  stem.remove_suffix(std::string_view(".sql").size());
  return stem;
}

// Every step of `backend`: its own folder's files and the common ones. One number written
// twice (in common/ and in the backend's folder) is a packaging mistake, refused at start-up.
std::vector<Migration> LoadMigrations(std::string_view backend) {
  std::vector<Migration> migrations;
  for (const EmbeddedFile& file : EmbeddedMigrationFiles()) {
    std::optional<std::string_view> stem = StemIn(file.path, backend);
    if (!stem) stem = StemIn(file.path, kCommonFolder);
    if (!stem) continue;
    int version = std::stoi(std::string(stem->substr(0, 4)));
    migrations.push_back({version, *stem, file.bytes});
  }
  std::sort(migrations.begin(), migrations.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  for (std::size_t i = 1; i < migrations.size(); ++i) {
    if (migrations[i].version == migrations[i - 1].version) {
      throw std::logic_error("migration " + std::string(migrations[i].name) +
                             " is written both in common/ and for " + std::string(backend));
    }
  }
  return migrations;
}

}  // namespace

std::span<const Migration> SqliteMigrations() {
  static const std::vector<Migration> kMigrations = LoadMigrations("sqlite");
  return kMigrations;
}

std::span<const Migration> PostgresMigrations() {
  static const std::vector<Migration> kMigrations = LoadMigrations("postgres");
  return kMigrations;
}

}  // namespace dp
