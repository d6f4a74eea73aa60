#pragma once
// Published endpoints (spec §6.2.23–26, REST API §19, auth.md §7.7, the published-endpoints
// design): a released, side-effect-free pipeline served as GET /api/x/{path}. The only place
// these rules live — publish (released version, read-only transitively, path grammar, the
// overlap refusal, the timeout clamp), the key bindings of the endpoint tree, and the serve
// (match, authorise, bind, run, answer or 202). The MCP tools, the /api/v1/endpoints routes and
// the /api/x handler translate.
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "datapipelines/service/identity/principal.hpp"
#include "datapipelines/store/endpoint_store.hpp"
#include "datapipelines/util/json.hpp"

namespace dp {

class AuditLog;
class ApiKeyService;
class ExecutionService;
class PathPattern;
class PipelineService;
struct ApiKeyIssueRequest;
struct IssuedApiKey;

struct EndpointServiceOptions {
  int timeout_default_seconds = 30;  // datapipelines.endpoints.timeout-default-seconds
  int timeout_min_seconds = 1;       // datapipelines.endpoints.timeout-min-seconds
  int timeout_max_seconds = 300;     // datapipelines.endpoints.timeout-max-seconds
};

struct CreateEndpointRequest {
  std::string path;
  std::string pipeline;  // by NAME
  std::optional<int64_t> timeout_seconds;
  std::string description;
  std::string correlation_id;
};

// One GET /api/x request, transport-neutral.
struct EndpointServeRequest {
  std::string method;
  std::string path;       // below /api/x, e.g. "/finance/revenue/emea" (still percent-encoded)
  std::string raw_query;  // after '?', undecoded
  std::optional<std::string> accept;
  std::optional<std::string> if_none_match;
  std::optional<std::string> ttl_header;        // DP-Result-TTL-Seconds
  std::optional<std::string> page_rows_header;  // DP-Result-Page-Rows
  std::string correlation_id;
};

struct EndpointServeAnswer {
  int status = 200;             // 200, 202 (timeout: the run continues) or 304 (If-None-Match)
  bool csv = false;             // the body is `csv` (text/csv) rather than `data` (JSON)
  Json data;                    // 200: the caller result (§7.3 page + cursor); 202: the pointers
  std::string csv_body;         // 200 with csv
  std::string etag;             // quoted, over what the body carries (200 and 304)
  int64_t max_age_seconds = 0;  // until the result expires (Cache-Control: private, max-age)
  std::string execution_id;
};

class EndpointService {
 public:
  EndpointService(EndpointStore& store, PipelineService& pipelines, ExecutionService& executions,
                  ApiKeyService& auth, AuditLog& audit, EndpointServiceOptions options = {});
  // Waits for every serve still running in the background (after a 202).
  ~EndpointService();

  // ---- management (author to write, read to list; inside the principal's workspace)
  Json Create(const Principal& principal, const CreateEndpointRequest& request);
  Json List(const Principal& principal);
  Json Get(const Principal& principal, const std::string& path);
  Json Delete(const Principal& principal, const std::string& path,
              const std::string& correlation_id);

  // ---- the endpoint tree's key bindings (author, and the key's OWNER)
  Json Bind(const Principal& principal, const std::string& node, const std::string& key_name);
  Json Unbind(const Principal& principal, const std::string& node, const std::string& key_name);
  Json ListBindings(const Principal& principal);
  // POST /api/v1/auth/api-keys with kind and bindings: the bindings are validated BEFORE the key
  // is minted (the plaintext is shown once), then written with it (auth.md §7.7 Issuance).
  IssuedApiKey IssueKey(const Principal& principal, const ApiKeyIssueRequest& request);

  // The path patterns publishing a pipeline (pipelines_get, the delete refusal).
  std::vector<std::string> PathsOfPipeline(const std::string& pipeline_id);

  // ---- GET /api/x/** (the caller authenticated with an API key of any kind)
  EndpointServeAnswer Serve(const Principal& principal, const EndpointServeRequest& request);

 private:
  struct Pending;
  Json Shape(const PublishedEndpointRecord& endpoint, const std::string& pipeline_name) const;
  PublishedEndpointRecord FindInWorkspace(const Principal& principal, const std::string& path);
  void AuditServe(const Principal& principal, const PublishedEndpointRecord& endpoint,
                  const std::string& execution_id, const std::string& outcome, int status,
                  int64_t started_ms, const std::string& correlation_id);
  void ReapFinished();
  // The serve past the match; sets `audited` once it has written the endpoint.served row.
  EndpointServeAnswer ServeMatched(const Principal& principal, const EndpointServeRequest& request,
                                   const PublishedEndpointRecord& endpoint,
                                   const PathPattern& pattern,
                                   const std::map<std::string, std::string>& variables,
                                   int64_t started_ms, bool& audited);

  EndpointStore& store_;
  PipelineService& pipelines_;
  ExecutionService& executions_;
  ApiKeyService& auth_;
  AuditLog& audit_;
  EndpointServiceOptions options_;
  std::mutex publish_mutex_;  // one overlap check at a time on this instance

  std::mutex workers_mutex_;
  std::vector<std::pair<std::shared_ptr<Pending>, std::thread>> workers_;
};

}  // namespace dp
