#include "datapipelines/cli/mcp_bridge_command.hpp"

#include <cstdlib>
#include <iostream>

#include "datapipelines/cli/mcp_stdio_bridge.hpp"

namespace dp::cli {

McpBridgeCommand::McpBridgeCommand(CLI::App& app) {
  command_ = app.add_subcommand(
      "mcp", "Serve MCP on stdin/stdout, forwarding to a running server (for Claude Desktop)");
  command_->add_option("--server", server_, "The server's URL (http://host:port[/mcp])")
      ->required();
  command_->add_option("--key-env", key_env_,
                       "Environment variable holding the API key (default DATAPIPELINES_API_KEY)");
  command_->add_option("--ca-file", ca_file_,
                       "PEM CA certificates to verify an https:// server with (default: the "
                       "system's store)");
}

int McpBridgeCommand::Run() {
  // Only protocol goes to stdout; everything said to a person goes to stderr.
  const char* key = std::getenv(key_env_.c_str());
  if (key == nullptr || *key == '\0') {
    std::cerr << "datapipelines mcp: set the API key in $" << key_env_
              << " (never on the command line)\n";
    return 2;
  }
  HttpUrl server;
  try {
    server = HttpUrl::Parse(server_);
  } catch (const std::invalid_argument& e) {
    std::cerr << "datapipelines mcp: " << e.what() << "\n";
    return 2;
  }
  if (server.path == "/") server.path = "/mcp";
  std::ios::sync_with_stdio(false);
  McpStdioBridge bridge(HttpClient(std::move(server), ca_file_), key, std::cout, std::cerr);
  return bridge.Run(std::cin);
}

}  // namespace dp::cli
