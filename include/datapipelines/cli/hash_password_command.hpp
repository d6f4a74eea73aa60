#pragma once
// `datapipelines hash-password`: prints the Argon2id hash of a password for
// datapipelines.auth.local.bootstrap-password-hash, so the first admin's password never sits in
// a configuration file. The password comes from DATAPIPELINES_SEED_PASSWORD or the first line
// of standard input — never from an argument, which the shell history and the process list
// would keep.
#include <CLI/CLI.hpp>

namespace dp::cli {

class HashPasswordCommand {
 public:
  explicit HashPasswordCommand(CLI::App& app);
  bool parsed() const { return command_->parsed(); }
  // Returns the process exit code.
  int Run();

 private:
  CLI::App* command_ = nullptr;
};

}  // namespace dp::cli
