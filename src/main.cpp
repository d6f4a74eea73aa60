// datapipelines — the server binary and its operator CLI.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "datapipelines/app/allocator_tuning.hpp"
#include "datapipelines/app/application.hpp"
#include "datapipelines/cli/datasource_commands.hpp"
#include "datapipelines/cli/demo_data_command.hpp"
#include "datapipelines/cli/hash_password_command.hpp"
#include "datapipelines/cli/mcp_bridge_command.hpp"
#include "datapipelines/cli/operator_commands.hpp"
#include "datapipelines/config/config.hpp"
#include "datapipelines/mcp/tool_reference.hpp"
#include "datapipelines/store/redact_url.hpp"
#include "datapipelines/util/json.hpp"

int main(int argc, char** argv) {
  dp::TuneAllocator();
  CLI::App app{"datapipelines — declarative SQL pipelines, MCP-native"};
  app.require_subcommand(1);
  // `serve --config FILE` (the systemd unit's form) as well as `--config FILE serve`.
  app.fallthrough();
  std::string config_path;
  app.add_option("-c,--config", config_path, "YAML configuration file")
      ->envname("DATAPIPELINES_CONFIG");
  app.set_version_flag("--version",
                       std::string("datapipelines ") + std::string(dp::ServerVersion()));

  auto* serve = app.add_subcommand("serve", "Run the HTTP server (MCP at /mcp, REST at /api/v1)");
  auto* migrate = app.add_subcommand("migrate", "Apply pending metadata-store migrations and exit");
  auto* version = app.add_subcommand("version", "Print the version");
  bool json = false;
  version->add_flag("--json", json, "Machine-readable JSON output");
  migrate->add_flag("--json", json, "Machine-readable JSON output");
  auto* tool_reference = app.add_subcommand(
      "tool-reference", "Print skill/references/tools.md as rendered from the served catalog");
  dp::cli::OperatorCommands operators(app);
  dp::cli::DemoDataCommand demo_data(app);
  dp::cli::McpBridgeCommand mcp_bridge(app);
  dp::cli::HashPasswordCommand hash_password(app);
  dp::cli::DatasourceCommands datasource_commands(app);

  CLI11_PARSE(app, argc, argv);

  if (version->parsed()) {
    if (json) {
      std::cout << dp::Json{{"version", std::string(dp::ServerVersion())}}.dump(2) << "\n";
    } else {
      std::cout << "datapipelines " << dp::ServerVersion() << "\n";
    }
    return 0;
  }
  if (demo_data.parsed()) return demo_data.Run();    // needs no server configuration
  if (mcp_bridge.parsed()) return mcp_bridge.Run();  // nor does the stdio bridge
  if (hash_password.parsed()) return hash_password.Run();
  dp::Config config;
  try {
    config = dp::LoadConfig(config_path, dp::ProcessEnvironment());
  } catch (const dp::ConfigError& e) {
    std::cerr << "configuration error: " << e.what() << "\n";
    return 2;
  }
  if (tool_reference->parsed()) {
    // A throwaway in-memory instance: the reference depends on the build, not on any data.
    config.metadata_url = ":memory:";
    config.log_level = "warn";
    dp::ConfigureLogging(config);
    dp::Application application(config);
    std::cout << dp::RenderToolReference(application.Catalog());
    return 0;
  }
  dp::ConfigureLogging(config);
  // Operator verbs act on an existing store: from another directory the relative default
  // data dir would silently be a new, empty one, so it is refused with the path it would use
  // (serve, migrate and bootstrap create it). The store in use goes to stderr.
  if (!serve->parsed()) {
    const bool embedded = config.metadata_url.empty();
    const std::filesystem::path dir = std::filesystem::absolute(config.data_dir);
    const bool creates = migrate->parsed() || operators.creates_store();
    if (embedded && !creates && !std::filesystem::exists(dir / "metadata.db")) {
      std::cerr << "error: no datapipelines store at " << (dir / "metadata.db").string()
                << "\n  the data dir is " << dir.string()
                << " (datapipelines.data-dir / DATAPIPELINES_DATA_DIR, relative to the current "
                   "directory);\n  run from the directory that holds .data, set "
                   "DATAPIPELINES_DATA_DIR, or pass --config\n";
      return 2;
    }
    std::cerr << "store: "
              << (embedded ? "sqlite " + (dir / "metadata.db").string()
                           : dp::RedactUrl(config.metadata_url))
              << "\n";
  }
  try {
    if (serve->parsed()) {
      dp::Application application(config);
      application.Listen();
      spdlog::info("datapipelines {} listening on http://{}:{} (MCP: /mcp)", dp::ServerVersion(),
                   config.server_address, application.BoundPort());
      application.Run();
      spdlog::info("datapipelines stopped");
      return 0;
    }
    if (migrate->parsed()) {
      int schema_version = dp::cli::Migrate(config);
      if (json) {
        std::cout << dp::Json{{"schema_version", schema_version}}.dump(2) << "\n";
      } else {
        std::cout << "metadata schema at version " << schema_version << "\n";
      }
      return 0;
    }
    if (datasource_commands.parsed()) return datasource_commands.Run(config);
    return operators.Run(config);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
