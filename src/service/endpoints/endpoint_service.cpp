#include "datapipelines/service/endpoints/endpoint_service.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <map>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/endpoints/endpoint_authorization.hpp"
#include "datapipelines/endpoints/endpoint_request_binder.hpp"
#include "datapipelines/endpoints/path_pattern.hpp"
#include "datapipelines/endpoints/readonly_check.hpp"
#include "datapipelines/pipeline/pipeline_body_parser.hpp"
#include "datapipelines/pipeline/validation_problems.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/identity/api_key_service.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"
#include "datapipelines/util/clock.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {
namespace {

constexpr std::string_view kServePrefix = "/api/x";

// An integer header; an unparseable value reads as absent (REST API §19.3: the server clamps).
std::optional<int> IntHeader(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  int value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (text->empty() || ec != std::errc() || end != text->data() + text->size()) {
    return std::nullopt;
  }
  return value;
}

// Whether one Accept media range admits `type` ("text/csv"): exact, "text/*" or "*/*".
bool Admits(const std::string& accept, std::string_view type) {
  std::size_t start = 0;
  while (start <= accept.size()) {
    std::size_t end = accept.find(',', start);
    if (end == std::string::npos) end = accept.size();
    std::string range = accept.substr(start, end - start);
    start = end + 1;
    range = range.substr(0, range.find(';'));
    range.erase(0, range.find_first_not_of(" \t"));
    range.erase(range.find_last_not_of(" \t") + 1);
    std::transform(range.begin(), range.end(), range.begin(), ::tolower);
    if (range == type || range == "*/*") return true;
    const std::string family(type.substr(0, type.find('/')));
    if (range == family + "/*") return true;
  }
  return false;
}

// The representation a request asks for: ?format= decides, then Accept (absent = JSON).
bool WantsCsv(const std::optional<std::string>& format, const std::optional<std::string>& accept) {
  if (format) return *format == "csv";
  if (!accept || accept->empty()) return false;
  const bool json = Admits(*accept, "application/json");
  const bool csv = Admits(*accept, "text/csv");
  if (csv && (!json || accept->find("text/csv") != std::string::npos) &&
      accept->find("application/json") == std::string::npos) {
    return true;
  }
  if (json) return false;
  throw DomainError(errc::kEndpointNotAcceptable,
                    "This endpoint answers application/json or text/csv.",
                    Json{{"accept", *accept}, {"supported", {"application/json", "text/csv"}}});
}

DomainError EndpointNotFound(const std::string& path) {
  // The same answer for an unknown path and a disabled endpoint: no enumeration.
  return DomainError(errc::kEndpointNotFound, "No endpoint is published at /api/x" + path + ".",
                     Json{{"path", path}});
}

bool MayExecute(const Principal& principal) {
  if (principal.scope < Scope::kExecute) return false;
  return principal.super_admin || principal.membership.has_value();
}

}  // namespace

// One serve's run, handed between the waiting request and the thread running it.
struct EndpointService::Pending {
  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  Json result;
  std::exception_ptr error;
};

EndpointService::EndpointService(EndpointStore& store, PipelineService& pipelines,
                                 ExecutionService& executions, ApiKeyService& auth, AuditLog& audit,
                                 EndpointServiceOptions options)
    : store_(store),
      pipelines_(pipelines),
      executions_(executions),
      auth_(auth),
      audit_(audit),
      options_(options) {}

EndpointService::~EndpointService() {
  std::vector<std::pair<std::shared_ptr<Pending>, std::thread>> workers;
  {
    std::lock_guard lock(workers_mutex_);
    workers.swap(workers_);
  }
  for (auto& [pending, thread] : workers) {
    if (thread.joinable()) thread.join();
  }
}

// ---- management

Json EndpointService::Shape(const PublishedEndpointRecord& e,
                            const std::string& pipeline_name) const {
  auto pattern = PathPattern::Parse(e.path);
  return Json{{"path", e.path},
              {"pipeline", pipeline_name},
              {"timeout_seconds", e.timeout_seconds},
              {"description", e.description},
              {"enabled", e.enabled},
              {"path_variables", pattern ? Json(pattern->Variables()) : Json::array()},
              {"url", std::string(kServePrefix) + e.path},
              {"created_at", FormatIso8601Ms(e.created_at_ms)}};
}

Json EndpointService::Create(const Principal& principal, const CreateEndpointRequest& request) {
  EnforceAccess(principal, Operation::kEndpointsCreate);
  std::string reason;
  auto pattern = PathPattern::Parse(request.path, &reason);
  if (!pattern) {
    throw DomainError(errc::kEndpointPathInvalid, "The path is not publishable: " + reason + ".",
                      Json{{"path", request.path}, {"reason", reason}});
  }
  auto entity = pipelines_.FindByName(principal.workspace_id, request.pipeline);
  if (!entity) {
    throw DomainError(errc::kPipelineNotFound,
                      "No pipeline named '" + request.pipeline + "' in this workspace.",
                      Json{{"pipeline", request.pipeline}});
  }
  auto released = pipelines_.LatestReleased(principal.workspace_id, entity->id);
  if (!released) {
    throw DomainError(errc::kPipelineVersionNotReleased,
                      "'" + request.pipeline +
                          "' has no released version; a person releases it before it can be "
                          "published.",
                      Json{{"pipeline", request.pipeline}});
  }
  PipelineBody body = PipelineBodyParser::ParseStored(released->version.body);
  auto children = [this, &principal](const ChildPipelineRef& ref) -> std::optional<PipelineBody> {
    try {
      auto child =
          pipelines_.ResolveChild(principal.workspace_id, ref.name, static_cast<int>(ref.version));
      return PipelineBodyParser::ParseStored(child.version.body);
    } catch (const DomainError&) {
      return std::nullopt;
    }
  };
  if (auto violation = ReadonlyCheck::FirstViolation(body, children)) {
    throw DomainError(errc::kEndpointPipelineNotReadonly,
                      "'" + request.pipeline + "' v" + std::to_string(released->version.version) +
                          " is not side-effect-free: " + violation->reason + ".",
                      Json{{"node_id", violation->node_id},
                           {"pipeline", violation->pipeline},
                           {"version", released->version.version}});
  }
  for (const std::string& variable : pattern->Variables()) {
    if (!body.FindParameter(variable)) {
      Json declared = Json::array();
      for (const auto& p : body.parameters) declared.push_back(p.name);
      throw DomainError(errc::kEndpointPathVariableUnknown,
                        "{" + variable + "} names no declared parameter of '" + request.pipeline +
                            "' v" + std::to_string(released->version.version) + ".",
                        Json{{"variable", variable}, {"declared", std::move(declared)}});
    }
  }
  PublishedEndpointRecord record;
  record.id = NewUuid();
  record.workspace_id = principal.workspace_id;
  record.path = pattern->text();
  record.pipeline_id = entity->id;
  record.timeout_seconds = static_cast<int>(
      std::clamp<int64_t>(request.timeout_seconds.value_or(options_.timeout_default_seconds),
                          options_.timeout_min_seconds, options_.timeout_max_seconds));
  record.description = request.description;
  record.enabled = true;
  record.created_by = principal.user_id;
  record.created_at_ms = record.updated_at_ms = NowMs();
  {
    // Ambiguity is refused, not resolved (REST API §19.1): a URL is global, so every
    // workspace's patterns are checked. Serialized here; UNIQUE catches exact duplicates.
    std::lock_guard lock(publish_mutex_);
    for (const auto& other : store_.ListAll()) {
      auto existing = PathPattern::Parse(other.path);
      if (existing && (existing->Overlaps(*pattern) || other.path == record.path)) {
        throw DomainError(errc::kEndpointPathConflict,
                          "'" + record.path + "' could match the same URL as the published '" +
                              other.path + "'; ambiguity is refused, not resolved.",
                          Json{{"path", record.path}, {"conflicting_path", other.path}});
      }
    }
    if (!store_.Insert(record)) {
      throw DomainError(errc::kEndpointPathConflict, "'" + record.path + "' is already published.",
                        Json{{"path", record.path}, {"conflicting_path", record.path}});
    }
  }
  AuditEvent event;
  event.event = "endpoint.published";
  event.user_id = principal.user_id;
  event.key_id = principal.key_id;
  event.workspace_id = principal.workspace_id;
  event.correlation_id = request.correlation_id;
  event.details = {{"endpoint_id", record.id},
                   {"path", record.path},
                   {"pipeline_id", record.pipeline_id},
                   {"timeout_seconds", record.timeout_seconds}};
  audit_.Record(std::move(event));
  return Shape(record, entity->name);
}

Json EndpointService::List(const Principal& principal) {
  EnforceAccess(principal, Operation::kEndpointsList);
  Json out = Json::array();
  std::map<std::string, std::string> names;
  for (const auto& e : store_.ListAll()) {
    if (e.workspace_id != principal.workspace_id) continue;
    auto& name = names[e.pipeline_id];
    if (name.empty()) {
      auto released = pipelines_.LatestReleased(principal.workspace_id, e.pipeline_id);
      name = released ? released->entity.name : e.pipeline_id;
    }
    out.push_back(Shape(e, name));
  }
  return Json{{"endpoints", std::move(out)}};
}

PublishedEndpointRecord EndpointService::FindInWorkspace(const Principal& principal,
                                                         const std::string& path) {
  auto found = store_.FindByPath(path);
  // Another workspace's endpoint reads exactly like none.
  if (!found || found->workspace_id != principal.workspace_id) {
    throw DomainError(errc::kEndpointNotFound, "No endpoint '" + path + "' in this workspace.",
                      Json{{"path", path}});
  }
  return *found;
}

Json EndpointService::Get(const Principal& principal, const std::string& path) {
  EnforceAccess(principal, Operation::kEndpointsGet);
  PublishedEndpointRecord e = FindInWorkspace(principal, path);
  auto released = pipelines_.LatestReleased(principal.workspace_id, e.pipeline_id);
  return Shape(e, released ? released->entity.name : e.pipeline_id);
}

Json EndpointService::Delete(const Principal& principal, const std::string& path,
                             const std::string& correlation_id) {
  EnforceAccess(principal, Operation::kEndpointsDelete);
  PublishedEndpointRecord e = FindInWorkspace(principal, path);
  if (!store_.Delete(e.id)) {
    throw DomainError(errc::kEndpointNotFound, "No endpoint '" + path + "' in this workspace.",
                      Json{{"path", path}});
  }
  AuditEvent event;
  event.event = "endpoint.unpublished";
  event.user_id = principal.user_id;
  event.key_id = principal.key_id;
  event.workspace_id = principal.workspace_id;
  event.correlation_id = correlation_id;
  event.details = {{"endpoint_id", e.id}, {"path", e.path}, {"pipeline_id", e.pipeline_id}};
  audit_.Record(std::move(event));
  return Json{{"path", e.path}, {"deleted", true}};
}

std::vector<std::string> EndpointService::PathsOfPipeline(const std::string& pipeline_id) {
  std::vector<std::string> out;
  for (const auto& e : store_.ListByPipeline(pipeline_id)) out.push_back(e.path);
  return out;
}

// ---- bindings

namespace {

void RequireNode(const std::string& node) {
  std::string reason;
  if (!EndpointAuthorization::IsNode(node, &reason)) {
    throw DomainError(errc::kEndpointPathInvalid,
                      "'" + node + "' is not a node of the endpoint tree: " + reason + ".",
                      Json{{"path", node}, {"reason", reason}});
  }
}

}  // namespace

Json EndpointService::Bind(const Principal& principal, const std::string& node,
                           const std::string& key_name) {
  EnforceAccess(principal, Operation::kEndpointsBind);
  RequireNode(node);
  // Only the caller's OWN key, by name, in this workspace (REST API §19.5): a name is not unique
  // deployment-wide, so another person's credential is never resolved from it.
  std::vector<ApiKeyRecord> matches;
  for (auto& key : auth_.ListApiKeys(principal)) {
    if (key.name == key_name && key.workspace_id == principal.workspace_id && !key.is_revoked) {
      matches.push_back(std::move(key));
    }
  }
  if (matches.empty()) {
    throw DomainError(errc::kApiKeyNotFound, "You have no live key named '" + key_name + "'.",
                      Json{{"key_name", key_name}});
  }
  if (matches.size() > 1) {
    throw DomainError(errc::kRequestInvalid,
                      "You hold several live keys named '" + key_name + "'; revoke or rename one.",
                      Json{{"field", "key_name"}, {"count", matches.size()}});
  }
  const ApiKeyRecord& key = matches.front();
  EndpointKeyBinding binding{node, key.id, principal.workspace_id, principal.user_id, NowMs()};
  const bool added = store_.InsertBinding(binding);
  if (added) {
    AuditEvent event;
    event.event = "endpoint.key_bound";
    event.user_id = principal.user_id;
    event.key_id = principal.key_id;
    event.workspace_id = principal.workspace_id;
    event.details = {{"path", node}, {"bound_key_id", key.id}};
    audit_.Record(std::move(event));
  }
  return Json{{"path", node},
              {"key_name", key.name},
              {"key_id", key.id},
              {"kind", std::string(ToString(key.kind))},
              {"created", added}};
}

Json EndpointService::Unbind(const Principal& principal, const std::string& node,
                             const std::string& key_name) {
  EnforceAccess(principal, Operation::kEndpointsUnbind);
  RequireNode(node);
  bool removed = false;
  for (const auto& key : auth_.ListApiKeys(principal)) {
    if (key.name != key_name || key.workspace_id != principal.workspace_id) continue;
    if (store_.DeleteBinding(node, key.id)) {
      removed = true;
      AuditEvent event;
      event.event = "endpoint.key_unbound";
      event.user_id = principal.user_id;
      event.key_id = principal.key_id;
      event.workspace_id = principal.workspace_id;
      event.details = {{"path", node}, {"bound_key_id", key.id}};
      audit_.Record(std::move(event));
    }
  }
  if (!removed) {
    throw DomainError(errc::kApiKeyNotFound,
                      "No key of yours named '" + key_name + "' is bound at '" + node + "'.",
                      Json{{"key_name", key_name}, {"path", node}});
  }
  return Json{{"path", node}, {"key_name", key_name}, {"removed", true}};
}

Json EndpointService::ListBindings(const Principal& principal) {
  EnforceAccess(principal, Operation::kEndpointsListBindings);
  std::map<std::string, std::string> own_names;
  for (const auto& key : auth_.ListApiKeys(principal)) own_names[key.id] = key.name;
  Json out = Json::array();
  for (const auto& b : store_.ListBindings(principal.workspace_id)) {
    Json row{{"path", b.path_prefix}, {"key_id", b.api_key_id}};
    if (auto it = own_names.find(b.api_key_id); it != own_names.end()) row["key_name"] = it->second;
    out.push_back(std::move(row));
  }
  return Json{{"bindings", std::move(out)}};
}

IssuedApiKey EndpointService::IssueKey(const Principal& principal,
                                       const ApiKeyIssueRequest& issue) {
  const CreateApiKeyRequest& request = issue.key;
  const std::vector<std::string>& bindings = issue.bindings;
  const bool scope_given = issue.scope_stated;
  // A kind is not a scope (auth.md §7.7): a scopeless kind asking for scopes, or a user key
  // asking for bindings, holds a model this surface corrects out loud.
  if (request.kind != KeyKind::kUser && scope_given) {
    throw DomainError(errc::kEndpointKeyKindRefused,
                      "An " + std::string(ToString(request.kind)) +
                          " key carries no scopes; its authority is its bindings.",
                      Json{{"reason", "scopes_on_scopeless_kind"}});
  }
  if (request.kind != KeyKind::kEndpoint && !bindings.empty()) {
    throw DomainError(errc::kEndpointKeyKindRefused,
                      "Only an endpoint key is bound to nodes of the endpoint tree.",
                      Json{{"reason", "bindings_on_non_endpoint_key"}});
  }
  if (!bindings.empty()) {
    EnforceAccess(principal, Operation::kEndpointsIssueKey);
    for (const auto& node : bindings) RequireNode(node);
  }
  CreateApiKeyRequest mint = request;
  if (mint.kind != KeyKind::kUser) mint.scope = Scope::kRead;  // the column needs one; unused
  IssuedApiKey issued = auth_.CreateApiKey(principal, mint);
  for (const auto& node : bindings) {
    EndpointKeyBinding binding{node, issued.record.id, issued.record.workspace_id,
                               principal.user_id, NowMs()};
    if (store_.InsertBinding(binding)) {
      AuditEvent event;
      event.event = "endpoint.key_bound";
      event.user_id = principal.user_id;
      event.key_id = principal.key_id;
      event.workspace_id = issued.record.workspace_id;
      event.details = {{"path", node}, {"bound_key_id", issued.record.id}};
      audit_.Record(std::move(event));
    }
  }
  return issued;
}

// ---- serve

void EndpointService::AuditServe(const Principal& principal,
                                 const PublishedEndpointRecord& endpoint,
                                 const std::string& execution_id, const std::string& outcome,
                                 int status, int64_t started_ms,
                                 const std::string& correlation_id) {
  // Who, which endpoint, outcome, elapsed — never a parameter value (spec §14).
  AuditEvent event;
  event.event = "endpoint.served";
  event.user_id = principal.user_id;
  event.key_id = principal.key_id;
  event.workspace_id = endpoint.workspace_id;
  event.correlation_id = correlation_id;
  event.details = {{"endpoint_id", endpoint.id},
                   {"path", endpoint.path},
                   {"outcome", outcome},
                   {"status", status},
                   {"elapsed_ms", NowMs() - started_ms}};
  if (!execution_id.empty()) event.details["execution_id"] = execution_id;
  audit_.Record(std::move(event));
}

void EndpointService::ReapFinished() {
  std::vector<std::thread> finished;
  {
    std::lock_guard lock(workers_mutex_);
    for (auto it = workers_.begin(); it != workers_.end();) {
      bool done;
      {
        std::lock_guard pending_lock(it->first->mutex);
        done = it->first->done;
      }
      if (done) {
        finished.push_back(std::move(it->second));
        it = workers_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& thread : finished) thread.join();
}

EndpointServeAnswer EndpointService::Serve(const Principal& principal,
                                           const EndpointServeRequest& request) {
  const int64_t started_ms = NowMs();
  ReapFinished();
  if (request.method != "GET") {
    throw DomainError(errc::kEndpointMethodNotAllowed, "Published endpoints answer GET only.",
                      Json{{"method", request.method}, {"allow", "GET"}});
  }
  // Match: at most one pattern can, because ambiguity is never published.
  std::optional<PublishedEndpointRecord> endpoint;
  std::optional<PathPattern> pattern;
  std::map<std::string, std::string> variables;
  for (auto& e : store_.ListAll()) {
    auto p = PathPattern::Parse(e.path);
    if (!p) continue;
    if (auto bound = p->Match(request.path)) {
      endpoint = std::move(e);
      pattern = std::move(p);
      variables = std::move(*bound);
      break;
    }
  }
  if (!endpoint || !endpoint->enabled) throw EndpointNotFound(request.path);

  // Every call that reached an endpoint is audited once, refusals included (who, which
  // endpoint, outcome, elapsed — never a parameter value).
  bool audited = false;
  try {
    return ServeMatched(principal, request, *endpoint, *pattern, variables, started_ms, audited);
  } catch (const DomainError& error) {
    if (!audited) {
      AuditServe(principal, *endpoint, "", std::string(error.code().code), error.http_status(),
                 started_ms, request.correlation_id);
    }
    throw;
  }
}

EndpointServeAnswer EndpointService::ServeMatched(
    const Principal& principal, const EndpointServeRequest& request,
    const PublishedEndpointRecord& matched, const PathPattern& matched_pattern,
    const std::map<std::string, std::string>& variables, int64_t started_ms, bool& audited) {
  const PublishedEndpointRecord* endpoint = &matched;
  const PathPattern* pattern = &matched_pattern;
  // Authorise: the key's hierarchical bindings (auth.md §7.7).
  std::vector<NodeBinding> bindings;
  for (const auto& b : store_.BindingsAt(EndpointAuthorization::Ancestors(*pattern))) {
    bindings.push_back({b.path_prefix, b.api_key_id});
  }
  EndpointCaller caller{principal.key_id, principal.kind, principal.workspace_id,
                        MayExecute(principal)};
  std::string deciding;
  switch (EndpointAuthorization::Decide(*pattern, endpoint->workspace_id, caller, bindings,
                                        &deciding)) {
    case EndpointVerdict::kAllowed:
      break;
    case EndpointVerdict::kKeyNotBound:
      throw DomainError(errc::kEndpointKeyNotBound,
                        "This key is not bound at '" + deciding +
                            "', the nearest node of this endpoint carrying bindings.",
                        Json{{"node", deciding}});
    case EndpointVerdict::kKindRefused:
      throw DomainError(
          errc::kEndpointKeyKindRefused,
          principal.kind == KeyKind::kEndpoint
              ? "No node above this endpoint binds any key; an unbound endpoint "
                "key authorises nothing."
              : "This kind of key cannot call published endpoints.",
          Json{{"reason", principal.kind == KeyKind::kEndpoint ? "endpoint_key_unbound"
                                                               : "server_key_off_surface"},
               {"kind", std::string(ToString(principal.kind))}});
    case EndpointVerdict::kWrongWorkspace:
      throw DomainError(errc::kWorkspaceMembershipRequired,
                        "This key is pinned to another workspace than the endpoint's.",
                        Json{{"reason", "wrong_workspace"}});
    case EndpointVerdict::kScopeRefused:
      throw DomainError(errc::kScopeInsufficient,
                        "An endpoint nobody has bound accepts user keys holding execute (and a "
                        "role that may execute) in its workspace.",
                        Json{{"required", "execute"}, {"granted", ToString(principal.scope)}});
  }
  if (!principal.super_admin && !principal.membership) {
    throw DomainError(errc::kKeyIssuerRoleLost,
                      "The owner of this key is no longer a member of the endpoint's workspace.",
                      Json{{"reason", "owner_not_member"}});
  }

  // The latest RELEASED version, re-checked read-only on every serve (REST API §19.2).
  auto released = pipelines_.LatestReleased(endpoint->workspace_id, endpoint->pipeline_id);
  if (!released) {
    throw DomainError(errc::kEndpointPipelineNotReleased,
                      "The pipeline behind this endpoint has no released version.",
                      Json{{"path", endpoint->path}});
  }
  PipelineBody body = PipelineBodyParser::ParseStored(released->version.body);
  auto children = [this, &endpoint](const ChildPipelineRef& ref) -> std::optional<PipelineBody> {
    try {
      auto child =
          pipelines_.ResolveChild(endpoint->workspace_id, ref.name, static_cast<int>(ref.version));
      return PipelineBodyParser::ParseStored(child.version.body);
    } catch (const DomainError&) {
      return std::nullopt;
    }
  };
  if (auto violation = ReadonlyCheck::FirstViolation(body, children)) {
    // The same code as at publish, answered 503: the endpoint is live, its target changed.
    const ErrorCode serve_time{errc::kEndpointPipelineNotReadonly.code, 503};
    throw DomainError(
        serve_time,
        "The released version behind this endpoint is no longer side-effect-free; "
        "it is not run.",
        Json{{"node_id", violation->node_id}, {"version", released->version.version}});
  }

  // Bind the request (every defect at once), then the representation.
  BoundEndpointRequest bound =
      EndpointRequestBinder::Bind(body.parameters, variables, request.raw_query);
  if (!bound.defects.empty()) {
    Json errors = Json::array();
    for (const auto& d : bound.defects) errors.push_back(d.ToJson());
    throw DomainError(errc::kEndpointRequestInvalid,
                      std::to_string(errors.size()) + " request defect(s); every one is listed.",
                      Json{{"errors", std::move(errors)}});
  }
  const bool csv = WantsCsv(bound.format, request.accept);

  // Run in-process as the endpoint's workspace and the key's owner, on a thread of its own so a
  // timeout answers 202 while the execution keeps running (ruling R-EP3).
  ExecuteRequest run;
  run.pipeline_id = released->entity.id;
  run.version = released->version.version;
  run.parameters = std::move(bound.parameters);
  run.surface = ExecutionSurface::kEndpoint;
  run.correlation_id = request.correlation_id;
  run.ttl_seconds = IntHeader(request.ttl_header);
  run.page_rows = IntHeader(request.page_rows_header);
  run.execution_id = NewUuid();
  const std::string execution_id = run.execution_id;
  auto pending = std::make_shared<Pending>();
  {
    std::lock_guard lock(workers_mutex_);
    workers_.emplace_back(pending, std::thread([this, principal, run, pending] {
                            Json result;
                            std::exception_ptr error;
                            try {
                              result = executions_.Execute(principal, run);
                            } catch (...) {
                              error = std::current_exception();
                            }
                            std::lock_guard lock(pending->mutex);
                            pending->result = std::move(result);
                            pending->error = error;
                            pending->done = true;
                            pending->cv.notify_all();
                          }));
  }
  {
    std::unique_lock lock(pending->mutex);
    if (!pending->cv.wait_for(lock, std::chrono::seconds(endpoint->timeout_seconds),
                              [&] { return pending->done; })) {
      lock.unlock();
      audited = true;
      AuditServe(principal, *endpoint, execution_id, "accepted", 202, started_ms,
                 request.correlation_id);
      EndpointServeAnswer answer;
      answer.status = 202;
      answer.execution_id = execution_id;
      answer.data = {
          {"execution_id", execution_id},
          {"result_url", ExecutionService::ResultUrl(execution_id)},
          {"status_url", "/api/v1/executions/" + execution_id},
          {"expires_at",
           FormatIso8601Ms(NowMs() +
                           int64_t{executions_.EffectiveTtlSeconds(run.ttl_seconds)} * 1000)}};
      return answer;
    }
  }
  if (pending->error) {
    std::string outcome = "error";
    int status = 500;
    try {
      std::rethrow_exception(pending->error);
    } catch (const DomainError& error) {
      outcome = std::string(error.code().code);
      status = error.http_status();
      audited = true;
      AuditServe(principal, *endpoint,
                 error.code() == errc::kExecutionConcurrencyLimit ? "" : execution_id, outcome,
                 status, started_ms, request.correlation_id);
      throw;
    } catch (...) {
      audited = true;
      AuditServe(principal, *endpoint, execution_id, outcome, status, started_ms,
                 request.correlation_id);
      throw;
    }
  }
  // The served row first: it is what lets an endpoint key read this execution's result.
  audited = true;
  AuditServe(principal, *endpoint, execution_id, "success", 200, started_ms,
             request.correlation_id);
  const Json& result = pending->result;
  EndpointServeAnswer answer;
  answer.execution_id = execution_id;
  answer.csv = csv;
  if (!result.contains("result_url")) {
    // A pipeline with no caller node answers its run, with nothing to cache.
    answer.data = {{"execution_id", execution_id},
                   {"status", result.value("status", "SUCCESS")},
                   {"rows", Json::array()},
                   {"row_count", 0},
                   {"total_rows", 0},
                   {"has_more", false}};
    answer.etag = "\"" + Sha256Hex(answer.data.dump()).substr(0, 32) + "\"";
    return answer;
  }
  // "2026-…T16:34:04.123Z": the seconds are precise enough for a max-age.
  std::string expires_at = result.value("expires_at", "");
  if (auto dot = expires_at.find('.'); dot != std::string::npos) {
    expires_at = expires_at.substr(0, dot) + "Z";
  }
  const int64_t expires_ms = ParseIso8601Utc(expires_at).value_or(NowMs());
  answer.max_age_seconds = std::max<int64_t>(0, (expires_ms - NowMs()) / 1000);
  if (csv) {
    Json encoded =
        executions_.GetResult(principal, execution_id, 0, std::nullopt, "csv", /*uncapped=*/true);
    answer.csv_body = Base64Decode(encoded.value("data", ""));
    answer.etag = "\"" + Sha256Hex(answer.csv_body).substr(0, 32) + "\"";
  } else {
    for (const char* field :
         {"execution_id", "schema", "rows", "row_count", "offset", "limit", "total_rows",
          "has_more", "result_url", "expires_at", "ttl_seconds"}) {
      if (result.contains(field)) answer.data[field] = result[field];
    }
    // Over what the result says, not which run said it: a repeat with the same rows matches.
    answer.etag = "\"" +
                  Sha256Hex(Json{{"schema", answer.data.value("schema", Json())},
                                 {"rows", answer.data.value("rows", Json())},
                                 {"total_rows", answer.data.value("total_rows", Json())}}
                                .dump())
                      .substr(0, 32) +
                  "\"";
  }
  if (request.if_none_match && *request.if_none_match == answer.etag) answer.status = 304;
  return answer;
}

}  // namespace dp
