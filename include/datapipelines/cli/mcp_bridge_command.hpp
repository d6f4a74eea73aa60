#pragma once
// `datapipelines mcp --server URL`: a stdio MCP server for agent hosts that only spawn local
// processes (Claude Desktop). The key comes from an environment variable, never a flag (a flag
// is visible to every local user in the process list).
#include <CLI/CLI.hpp>

#include <string>

namespace dp::cli {

class McpBridgeCommand {
 public:
  explicit McpBridgeCommand(CLI::App& app);
  bool parsed() const { return command_->parsed(); }
  // Runs the bridge until stdin closes; returns the process exit code.
  int Run();

 private:
  CLI::App* command_ = nullptr;
  std::string server_;
  std::string key_env_ = "DATAPIPELINES_API_KEY";
  std::string ca_file_;
};

}  // namespace dp::cli
