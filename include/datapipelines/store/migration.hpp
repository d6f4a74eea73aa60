#pragma once
// Numbered schema migrations compiled into the binary: the SQL files under
// src/store/migrations/{common,<backend>}/NNNN_name.sql, embedded at build time
// (cmake/embed_files.cmake). common/ holds the steps both backends run as written.
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
