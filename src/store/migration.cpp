// The migrations are the .sql files under src/store/migrations/<backend>/, compiled into the
// binary by cmake/embed_files.cmake (EmbeddedMigrationFiles): one copy of every statement.
#include "datapipelines/store/migration.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "datapipelines/util/embedded_file.hpp"

namespace dp {
namespace {

// "sqlite/0001_init.sql" → {1, "0001_init", sql} for the backend folder named.
std::vector<Migration> LoadMigrations(std::string_view backend) {
  std::vector<Migration> migrations;
  for (const EmbeddedFile& file : EmbeddedMigrationFiles()) {
    std::string_view path = file.path;
    if (path.size() <= backend.size() + 1 || path.substr(0, backend.size()) != backend ||
        path[backend.size()] != '/') {
      continue;
    }
    std::string_view stem = path.substr(backend.size() + 1);
    stem.remove_suffix(std::string_view(".sql").size());
    int version = std::stoi(std::string(stem.substr(0, 4)));
    migrations.push_back({version, stem, file.bytes});
  }
  std::sort(migrations.begin(), migrations.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
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
