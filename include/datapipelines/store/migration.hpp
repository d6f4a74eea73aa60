#pragma once
// Numbered schema migrations compiled into the binary. The SQL lives on disk under
// src/store/migrations/<backend>/NNNN_name.sql; src/store/migration.cpp embeds the same
// bytes and a unit test compares them, so the two cannot drift.
#include <span>
#include <string_view>

namespace dp {

struct Migration {
  int version = 0;
  std::string_view name;  // file stem, e.g. "0001_init"
  std::string_view sql;
};

// Ascending by version; both backends hold the same version numbers.
std::span<const Migration> SqliteMigrations();
std::span<const Migration> PostgresMigrations();

}  // namespace dp
