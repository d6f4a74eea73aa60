#pragma once
// The composition root: opens the stores named by the config, builds the services, the MCP
// catalog and the routes, and owns the HTTP server. main.cpp and the tests use it.
#include <memory>
#include <string>

#include "datapipelines/config/config.hpp"

namespace dp {

class AuthService;
class MailNotifier;
class MetadataStore;
class ToolCatalog;
class McpServer;
class RestApi;

class Application {
 public:
  // Opens stores and applies migrations; throws std::runtime_error with a secret-free message.
  explicit Application(Config config);
  ~Application();

  void Listen();  // binds the port (throws when unavailable)
  int BoundPort() const;
  void Run();       // serves until SIGTERM/SIGINT, then drains (graceful shutdown)
  void Shutdown();  // thread-safe

  AuthService& Auth();
  // The notices mailed to people and operators (inert, one log line each, when mail is off).
  MailNotifier& Mail();
  MetadataStore& Store();
  const ToolCatalog& Catalog() const;
  const McpServer& Mcp() const;
  // The two surfaces, for tests that drive them in-process (the operation walk).
  McpServer& Mcp();
  RestApi& Rest();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Configures spdlog (console or JSON lines) from the config.
void ConfigureLogging(const Config& config);

// The release version: project(VERSION) in CMakeLists.txt.
std::string_view ServerVersion();

}  // namespace dp
