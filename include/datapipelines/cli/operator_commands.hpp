#pragma once
// Operator CLI: bootstrap, users, workspaces, members, keys — each with --json for scripts.
// The shell is the operator: these verbs call AccountAdministration's and ApiKeyService's
// operator functions directly.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "datapipelines/config/config.hpp"

namespace dp::cli {

int Migrate(const Config& config);

class OperatorCommands {
 public:
  explicit OperatorCommands(CLI::App& app);
  // True for `bootstrap`, the one operator verb that may create a new, empty store.
  bool creates_store() const { return bootstrap_->parsed(); }
  // Runs whichever operator subcommand was parsed; returns the process exit code.
  int Run(const Config& config);

 private:
  struct Options {
    bool json = false;
    std::string email, display_name, password, workspace, name, role,
        scope = "read", kind = "user", key_id, expires_at, since, event;
    int limit = 100;
    bool password_stdin = false;
    bool super_admin = false;
  };
  Options options_;
  CLI::App* bootstrap_ = nullptr;
  CLI::App* users_create_ = nullptr;
  CLI::App* users_list_ = nullptr;
  CLI::App* users_deactivate_ = nullptr;
  CLI::App* users_activate_ = nullptr;
  CLI::App* users_set_password_ = nullptr;
  CLI::App* workspaces_create_ = nullptr;
  CLI::App* workspaces_list_ = nullptr;
  CLI::App* members_set_ = nullptr;
  CLI::App* members_remove_ = nullptr;
  CLI::App* members_list_ = nullptr;
  CLI::App* keys_create_ = nullptr;
  CLI::App* keys_list_ = nullptr;
  CLI::App* keys_revoke_ = nullptr;
  CLI::App* keys_revoke_all_ = nullptr;
  CLI::App* audit_ = nullptr;
};

}  // namespace dp::cli
