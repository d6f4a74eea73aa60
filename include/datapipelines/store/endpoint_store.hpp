#pragma once
// The published-endpoint store port (metadata-db §4.13–4.14, migration 0008): rows written by
// EndpointService alone. The store states no rule beyond the rows' own: a path pattern is
// unique deployment-wide (a URL is global), and a binding is one (node, key) pair.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dp {

class MetadataStore;

struct PublishedEndpointRecord {
  std::string id;  // uuid
  std::string workspace_id;
  std::string path;  // the pattern, '/finance/revenue/{region}'
  std::string pipeline_id;
  int timeout_seconds = 30;
  std::string description;
  bool enabled = true;
  std::string created_by;  // user id
  int64_t created_at_ms = 0;
  int64_t updated_at_ms = 0;
};

struct EndpointKeyBinding {
  std::string path_prefix;  // a node of the endpoint tree ('/finance', '/' binds everything)
  std::string api_key_id;
  std::string workspace_id;
  std::string created_by;
  int64_t created_at_ms = 0;
};

class EndpointStore {
 public:
  virtual ~EndpointStore() = default;

  // False when the pattern is already published (the UNIQUE constraint's answer).
  virtual bool Insert(const PublishedEndpointRecord& endpoint) = 0;
  virtual std::optional<PublishedEndpointRecord> FindByPath(const std::string& path) = 0;
  // Every endpoint of every workspace, by path: the overlap check and the request matcher
  // need the whole deployment because a URL is global.
  virtual std::vector<PublishedEndpointRecord> ListAll() = 0;
  virtual std::vector<PublishedEndpointRecord> ListByPipeline(const std::string& pipeline_id) = 0;
  // False when no such row.
  virtual bool Delete(const std::string& id) = 0;

  // False when the (node, key) pair is already bound.
  virtual bool InsertBinding(const EndpointKeyBinding& binding) = 0;
  virtual bool DeleteBinding(const std::string& path_prefix, const std::string& api_key_id) = 0;
  // The bindings of the given nodes (any key), for the per-request ancestor walk.
  virtual std::vector<EndpointKeyBinding> BindingsAt(const std::vector<std::string>& prefixes) = 0;
  virtual std::vector<EndpointKeyBinding> ListBindings(const std::string& workspace_id) = 0;
};

// The SQL adapter over the metadata store's own connection (SQLite or PostgreSQL).
std::unique_ptr<EndpointStore> OpenEndpointStore(MetadataStore& metadata);

}  // namespace dp
