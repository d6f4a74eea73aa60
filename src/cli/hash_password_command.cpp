#include "datapipelines/cli/hash_password_command.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

#include "datapipelines/service/identity/account_rules.hpp"
#include "datapipelines/service/identity/secret_hasher.hpp"

namespace dp::cli {

HashPasswordCommand::HashPasswordCommand(CLI::App& app) {
  command_ = app.add_subcommand(
      "hash-password",
      "Print the Argon2id hash of a password (from DATAPIPELINES_SEED_PASSWORD or standard "
      "input) for datapipelines.auth.local.bootstrap-password-hash");
}

int HashPasswordCommand::Run() {
  std::string password;
  if (const char* from_env = std::getenv("DATAPIPELINES_SEED_PASSWORD")) {
    password = from_env;
  } else {
    std::getline(std::cin, password);
  }
  if (!password.empty() && password.back() == '\r') password.pop_back();
  if (password.empty()) {
    std::cerr << "hash-password: no password (set DATAPIPELINES_SEED_PASSWORD or pipe it in)\n";
    return 2;
  }
  if (Utf8Length(password) > kMaxPasswordChars) {
    std::cerr << "hash-password: at most " << kMaxPasswordChars << " characters\n";
    return 2;
  }
  std::cout << SecretHasher().HashSecret(password) << "\n";
  return 0;
}

}  // namespace dp::cli
