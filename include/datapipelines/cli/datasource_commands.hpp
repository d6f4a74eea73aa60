#pragma once
// `datapipelines datasources list|add|grant|ungrant|test|restore|purge`: the operator's datasource
// registry verbs (MCP spec §6.2.22 — credentials reach the server from a person or an operator,
// never an agent). The password is read from stdin, never from argv, and is never printed.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "datapipelines/config/config.hpp"

namespace dp::cli {

class DatasourceCommands {
 public:
  explicit DatasourceCommands(CLI::App& app);
  bool parsed() const {
    return list_->parsed() || add_->parsed() || grant_->parsed() || ungrant_->parsed() ||
           test_->parsed() || restore_->parsed() || purge_->parsed();
  }
  // Runs whichever verb was parsed; returns the process exit code.
  int Run(const Config& config);

 private:
  CLI::App* list_ = nullptr;
  CLI::App* add_ = nullptr;
  CLI::App* grant_ = nullptr;
  CLI::App* ungrant_ = nullptr;
  CLI::App* test_ = nullptr;
  CLI::App* restore_ = nullptr;
  CLI::App* purge_ = nullptr;
  std::string workspace_;
  std::string name_, display_name_, description_, dialect_, jdbc_url_, username_;
  std::vector<std::string> grants_;
  bool password_stdin_ = false;
  bool readonly_ = false;
  bool json_ = false;
};

}  // namespace dp::cli
