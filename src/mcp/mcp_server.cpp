#include "datapipelines/mcp/mcp_server.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/mcp/prompts/prompt_catalog.hpp"
#include "datapipelines/service/audit/access_audit.hpp"
#include "datapipelines/service/audit/audit_log.hpp"
#include "datapipelines/service/docs/skill_docs.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/util/crypto.hpp"

namespace dp {

namespace jsonrpc {
Json Error(const Json& id, int code, const std::string& message) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}
Json Result(const Json& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}
}  // namespace jsonrpc

namespace {

constexpr std::string_view kSkillUri = "datapipelines://docs/skill";

// Identifier-shaped arguments the audit row may carry (spec §14) — never SQL, rows or values.
constexpr std::string_view kTargetArguments[] = {
    "id",      "name",  "pipeline_id", "execution_id", "template_id", "datasource", "version",
    "node_id", "table", "namespace",   "schema",       "path",        "pipeline"};

Json AuditTarget(const Json& arguments) {
  Json target = Json::object();
  if (!arguments.is_object()) return target;
  for (std::string_view key : kTargetArguments) {
    auto it = arguments.find(std::string(key));
    if (it == arguments.end()) continue;
    if (it->is_string() || it->is_number_integer()) {
      target[std::string(key)] = AuditLog::Bounded(*it);
    } else if (it->is_array()) {  // identifiers only: scalar items, never a nested tree
      Json items = Json::array();
      for (const Json& item : *it) {
        if (items.size() == AuditLog::kMaxDetailItems) break;
        if (item.is_string() || item.is_number_integer()) items.push_back(AuditLog::Bounded(item));
      }
      target[std::string(key)] = std::move(items);
    }
  }
  if (auto sql = arguments.find("sql"); sql != arguments.end() && sql->is_string()) {
    const std::string& text = sql->get_ref<const std::string&>();
    target["sql_sha256"] = Sha256Hex(text);
    target["sql_length"] = text.size();
  }
  return target;
}

// resources/list pages (§7.3): fixed size, never client-controlled.
constexpr std::size_t kResourcePageSize = 100;

// A descriptor with its place in the §7.3 order: docs (rank 0, map order), then each entity
// kind by id.
struct RankedResource {
  ResourcePosition position;
  Json descriptor;
};

bool Before(const ResourcePosition& a, const ResourcePosition& b) {
  return a.rank != b.rank ? a.rank < b.rank : a.key < b.key;
}

// How a provider's refusal is named in the mcp.resource.read row (§14).
std::string_view ReadFailureCode(const DomainError& error) {
  int status = error.http_status();
  if (status == 401 || status == 403) return "forbidden";
  if (status == 404 || status == 400) return "resource_not_found";
  return "internal_error";
}

// A resource request has no tool result to carry a domain error: an outage is a JSON-RPC
// error whose message names the catalogued code and when to retry.
JsonRpcFault OutageFault(const DomainError& error) {
  const int retry = error.details().value("retry_after_seconds", 1);
  return JsonRpcFault(jsonrpc::kInternalError,
                      std::string(error.what()) + " (" + std::string(error.code().code) +
                          "; retry after " + std::to_string(retry) + " s)");
}

// §7.3 enumeration order of the entity kinds; an unknown kind goes last.
int KindRank(std::string_view kind) {
  constexpr std::string_view kOrder[] = {"pipelines", "templates", "datasources", "executions"};
  for (int i = 0; i < 4; ++i) {
    if (kOrder[i] == kind) return i;
  }
  return 4;
}

const Json& ParamsObject(const Json& request) {
  static const Json kEmpty = Json::object();
  auto it = request.find("params");
  if (it == request.end() || it->is_null()) return kEmpty;
  if (!it->is_object())
    throw JsonRpcFault(jsonrpc::kInvalidParams, "Invalid params: params must be an object.");
  return *it;
}

const std::string& RequiredString(const Json& params, const char* field) {
  auto it = params.find(field);
  if (it == params.end()) {
    throw JsonRpcFault(jsonrpc::kInvalidParams,
                       std::string("Invalid params: missing required field '") + field + "'.");
  }
  if (!it->is_string()) {
    throw JsonRpcFault(jsonrpc::kInvalidParams,
                       std::string("Invalid params: '") + field + "' must be a string.");
  }
  return it->get_ref<const std::string&>();
}

}  // namespace

const std::vector<std::string>& SupportedProtocolVersions() {
  static const std::vector<std::string> kVersions = {"2025-03-26", "2025-06-18", "2025-11-25"};
  return kVersions;
}

bool IsSupportedProtocolVersion(std::string_view version) {
  const auto& versions = SupportedProtocolVersions();
  return std::find(versions.begin(), versions.end(), version) != versions.end();
}

McpServer::McpServer(const ToolCatalog& catalog, AuditLog& audit, const SkillDocs& docs,
                     std::string server_version, std::string cursor_signing_key,
                     ToolCallObserver tool_call_observer)
    : catalog_(catalog),
      audit_(audit),
      docs_(docs),
      server_version_(std::move(server_version)),
      cursors_(cursor_signing_key.empty() ? RandomBytes(32) : std::move(cursor_signing_key)),
      tool_call_observer_(std::move(tool_call_observer)) {}

Json McpServer::HandleRequest(const Json& request, const McpRequestContext& context) {
  const Json& id = request["id"];
  const std::string& method = request["method"].get_ref<const std::string&>();
  try {
    const Json& params = ParamsObject(request);
    if (method == "initialize") return jsonrpc::Result(id, Initialize(params));
    if (method == "ping") return jsonrpc::Result(id, Json::object());
    if (method == "tools/list") return jsonrpc::Result(id, catalog_.ListResult());
    if (method == "tools/call") return jsonrpc::Result(id, CallTool(params, context));
    if (method == "resources/list") return jsonrpc::Result(id, ListResources(params, context));
    if (method == "resources/read") return jsonrpc::Result(id, ReadResource(params, context));
    if (method == "resources/templates/list") {
      return jsonrpc::Result(id, Json{{"resourceTemplates", ResourceTemplates()}});
    }
    if (method == "prompts/list") return jsonrpc::Result(id, PromptCatalog::BuiltIn().ListResult());
    if (method == "prompts/get") {
      try {
        return jsonrpc::Result(id, PromptCatalog::BuiltIn().Get(params));
      } catch (const PromptArgumentError& refusal) {
        throw JsonRpcFault(jsonrpc::kInvalidParams, refusal.what());
      }
    }
    return jsonrpc::Error(id, jsonrpc::kMethodNotFound, "Method not found: " + method);
  } catch (const JsonRpcFault& fault) {
    return jsonrpc::Error(id, fault.code(), fault.what());
  }
}

bool McpServer::AnswersWithoutBlocking(const Json& request) {
  auto method = request.find("method");
  if (method == request.end() || !method->is_string()) return false;
  const std::string& name = method->get_ref<const std::string&>();
  return name == "ping" || name == "tools/list" || name == "initialize" || name == "prompts/list" ||
         name == "prompts/get" || name == "resources/templates/list";
}

std::string McpServer::HandleRequestText(const Json& request, const McpRequestContext& context) {
  auto params = request.find("params");
  bool plain_params = params == request.end() || params->is_null() || params->is_object();
  if (request["method"] == "tools/list" && plain_params) {
    // One buffer sized once: the catalog is ~60 KB, and growing a string through it per
    // request costs reallocations and fresh pages.
    constexpr std::string_view kHead = R"({"jsonrpc":"2.0","id":)";
    constexpr std::string_view kResult = R"(,"result":)";
    const std::string id = request["id"].dump();
    const std::string& tools = catalog_.ListResultText();
    std::string text;
    text.reserve(kHead.size() + id.size() + kResult.size() + tools.size() + 1);
    text.append(kHead).append(id).append(kResult).append(tools).push_back('}');
    return text;
  }
  return HandleRequest(request, context).dump();
}

Json McpServer::Initialize(const Json& params) {
  const std::string& requested = RequiredString(params, "protocolVersion");
  std::string version =
      IsSupportedProtocolVersion(requested) ? requested : SupportedProtocolVersions().back();
  return Json{{"protocolVersion", version},
              {"capabilities",
               {{"tools", {{"listChanged", false}}},
                {"resources", {{"listChanged", false}, {"subscribe", false}}},
                {"prompts", {{"listChanged", false}}}}},
              {"serverInfo", {{"name", "datapipelines"}, {"version", server_version_}}},
              {"instructions", std::string(docs_.Instructions())}};
}

Json McpServer::ToolResult(Json payload, bool is_error, const std::string& correlation_id) const {
  return Json{{"content", Json::array({{{"type", "text"}, {"text", payload.dump()}}})},
              {"isError", is_error},
              {"_meta", {{"correlation_id", correlation_id}}}};
}

Json McpServer::CallTool(const Json& params, const McpRequestContext& context) {
  auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
        .count();
  };
  static const Json kNoArguments = Json::object();
  const Json* arguments = &kNoArguments;
  std::string name;
  try {
    name = RequiredString(params, "name");
    if (auto it = params.find("arguments"); it != params.end() && !it->is_null()) {
      if (!it->is_object()) {
        throw JsonRpcFault(jsonrpc::kInvalidParams,
                           "Invalid params: 'arguments' must be an object.");
      }
      arguments = &*it;
    }
  } catch (const JsonRpcFault&) {
    // Malformed calls are calls too: every outcome leaves an mcp.tool.called row (§14).
    AuditToolCall(nullptr, name, kNoArguments, context, "invalid_params", "", elapsed(), false);
    throw;
  }
  const CatalogEntry* entry = catalog_.FindServed(name);
  if (!entry) {
    AuditToolCall(nullptr, name, *arguments, context, "invalid_params", "", elapsed(), false);
    throw JsonRpcFault(jsonrpc::kInvalidParams, "Invalid params: unknown tool '" + name + "'.");
  }
  const ToolDefinition& definition = *entry->definition;
  try {
    EnforceAccess(context.principal, definition.operation);
  } catch (const DomainError& refusal) {
    AuditToolCall(entry, name, *arguments, context, "scope_refused", refusal.code().code, elapsed(),
                  false);
    return ToolResult(Json{{"error", refusal.ToJson()}}, true, context.correlation_id);
  }
  auto errors = entry->validator->Validate(*arguments);
  // A malformed id/name the spec answers with its own domain code reaches the service.
  std::erase_if(errors, [&](const ValidationError& error) {
    return error.keyword == "pattern" && IsDomainCheckedArgument(name, error.path);
  });
  if (!errors.empty()) {
    AuditToolCall(entry, name, *arguments, context, "invalid_params", "", elapsed(), false);
    throw JsonRpcFault(jsonrpc::kInvalidParams, FormatInvalidParams(errors));
  }
  ToolCall call{context.principal, *arguments, context.correlation_id};
  call.result_ttl_header = context.result_ttl_header;
  if (context.notify && params.contains("_meta") && params["_meta"].is_object() &&
      params["_meta"].contains("progressToken")) {
    const Json token = params["_meta"]["progressToken"];
    call.progress = [notify = context.notify, token](int64_t progress, int64_t total,
                                                     const std::string& message) {
      notify(Json{{"jsonrpc", "2.0"},
                  {"method", "notifications/progress"},
                  {"params",
                   {{"progressToken", token},
                    {"progress", progress},
                    {"total", total},
                    {"message", message}}}});
    };
  }
  try {
    Json payload = entry->handler(call);
    AuditToolCall(entry, name, *arguments, context, "success", "", elapsed(), true);
    return ToolResult(std::move(payload), false, context.correlation_id);
  } catch (const DomainError& error) {
    AuditToolCall(entry, name, *arguments, context, "error", error.code().code, elapsed(), true);
    return ToolResult(Json{{"error", error.ToJson()}}, true, context.correlation_id);
  } catch (const JsonRpcFault&) {
    AuditToolCall(entry, name, *arguments, context, "invalid_params", "", elapsed(), true);
    throw;
  } catch (const std::exception& e) {
    spdlog::error("correlation_id={} tool={} internal error: {}", context.correlation_id, name,
                  e.what());
    AuditToolCall(entry, name, *arguments, context, "internal_error", errc::kInternal.code,
                  elapsed(), true);
    DomainError internal(errc::kInternal,
                         "Internal error; quote the correlation id to an operator.",
                         Json{{"correlation_id", context.correlation_id}});
    return ToolResult(Json{{"error", internal.ToJson()}}, true, context.correlation_id);
  }
}

void McpServer::AuditToolCall(const CatalogEntry* entry, std::string_view tool,
                              const Json& arguments, const McpRequestContext& context,
                              std::string_view outcome, std::string_view code, double elapsed_ms,
                              bool tool_ran) {
  if (tool_call_observer_) {
    tool_call_observer_(entry ? std::string_view(tool) : std::string_view("unknown"), outcome,
                        elapsed_ms);
  }
  AuditEvent event;
  event.user_id = context.principal.user_id;
  event.key_id = context.principal.key_id;
  event.workspace_id = context.principal.workspace_id;
  event.correlation_id = context.correlation_id;
  event.source_ip = context.source_ip;
  event.details = {{"tool", std::string(tool)},
                   {"target", AuditTarget(arguments)},
                   {"outcome", std::string(outcome)},
                   {"elapsed_ms", static_cast<int64_t>(elapsed_ms)}};
  if (!code.empty()) event.details["code"] = std::string(code);
  event.event = "mcp.tool.called";
  audit_.Record(event);
  const AccessTarget target{"mcp", "tools/call", tool, context.correlation_id, context.source_ip};
  RecordSuperAdminActing(audit_, context.principal, target);
  RecordAccessRefusal(audit_, context.principal, code, target);
  // Exactly one write event per mutating call that ran; a refusal never ran the tool (§14).
  if (entry && entry->definition->mutating() && tool_ran) {
    event.event = "mcp.tool.write";
    audit_.Record(event);
  }
}

Json McpServer::ResourceTemplates() const {
  Json templates = Json::array({{{"uriTemplate", std::string(kSkillUri) + "/{reference}"},
                                 {"name", "skill-reference"},
                                 {"description", "One reference document of the agent skill."},
                                 {"mimeType", "text/markdown"}}});
  for (const auto& provider : providers_) {
    for (const Json& entry : provider->UriTemplates()) templates.push_back(entry);
  }
  return templates;
}

void McpServer::AddResourceProvider(std::unique_ptr<ResourceProvider> provider) {
  providers_.push_back(std::move(provider));
  std::stable_sort(providers_.begin(), providers_.end(), [](const auto& a, const auto& b) {
    return KindRank(a->Kind()) < KindRank(b->Kind());
  });
}

Json McpServer::ListDocResources() const {
  Json resources = Json::array();
  for (const SkillDoc& doc : docs_.List()) {
    std::string uri(kSkillUri);
    if (doc.name != "skill") uri += "/" + doc.name;
    resources.push_back(
        {{"uri", uri},
         {"name", doc.name},
         {"title", doc.title},
         {"description", doc.purpose.empty() ? "The agent skill's operating core." : doc.purpose},
         {"mimeType", "text/markdown"}});
  }
  return resources;
}

Json McpServer::ListResources(const Json& params, const McpRequestContext& context) {
  std::optional<ResourcePosition> after;
  if (auto it = params.find("cursor"); it != params.end() && !it->is_null()) {
    if (it->is_string()) after = cursors_.Redeem(it->get<std::string>(), context.principal.key_id);
    if (!after) throw JsonRpcFault(jsonrpc::kInvalidParams, "Invalid params: unknown cursor.");
  }
  // Docs lead: constant size, so they never push an entity off a page (§7.3).
  std::vector<RankedResource> all;
  Json docs = ListDocResources();
  for (std::size_t i = 0; i < docs.size(); ++i) {
    char key[24];  // any size_t in six or more digits
    std::snprintf(key, sizeof key, "%06zu", i);
    all.push_back({{0, key}, std::move(docs[i])});
  }
  for (const auto& provider : providers_) {
    const int rank = 1 + KindRank(provider->Kind());
    try {
      for (auto& descriptor : provider->List(context.principal)) {
        std::string key = descriptor["uri"].get<std::string>();
        all.push_back({{rank, std::move(key)}, std::move(descriptor)});
      }
    } catch (const DomainError& error) {
      if (IsOutage(error)) throw OutageFault(error);
      // The key may not read this kind: the listing is filtered to what it may read (§7.3).
    } catch (const std::exception& e) {
      spdlog::error("correlation_id={} resources/list {}: {}", context.correlation_id,
                    provider->Kind(), e.what());
      throw JsonRpcFault(jsonrpc::kInternalError,
                         "Internal error; quote the correlation id to an operator.");
    }
  }
  // Each kind by id; a page starts after the position the cursor names, so an entity created
  // mid-run never repeats or skips a later row (it is missed only when it sorts earlier).
  std::stable_sort(all.begin(), all.end(), [](const RankedResource& a, const RankedResource& b) {
    return Before(a.position, b.position);
  });
  auto first = all.begin();
  if (after) {
    first = std::upper_bound(all.begin(), all.end(), *after,
                             [](const ResourcePosition& position, const RankedResource& row) {
                               return Before(position, row.position);
                             });
  }
  Json page = Json::array();
  auto it = first;
  for (; it != all.end() && page.size() < kResourcePageSize; ++it) {
    page.push_back(std::move(it->descriptor));
  }
  Json result{{"resources", std::move(page)}};
  if (it != all.end()) {
    result["nextCursor"] = cursors_.Issue(std::prev(it)->position, context.principal.key_id);
  }
  return result;
}

std::optional<Json> McpServer::ReadDocContents(const std::string& uri) const {
  const SkillDoc* doc = nullptr;
  if (uri == kSkillUri) {
    doc = docs_.Find("skill");
  } else if (uri.rfind(std::string(kSkillUri) + "/", 0) == 0) {
    std::string name = uri.substr(kSkillUri.size() + 1);
    if (name != "skill" && name != "skill.md") doc = docs_.Find(name);
  }
  if (!doc) return std::nullopt;
  return Json::array({TextResourceContents(uri, "text/markdown", std::string(doc->markdown))});
}

std::optional<Json> McpServer::ReadContents(const Principal& principal, const std::string& uri) {
  if (auto contents = ReadDocContents(uri)) return contents;
  for (const auto& provider : providers_) {
    if (auto contents = provider->Read(principal, uri)) return contents;
  }
  return std::nullopt;
}

// The one place every resources/read passes through, so every read leaves its §14 row.
Json McpServer::ReadResource(const Json& params, const McpRequestContext& context) {
  auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
        .count();
  };
  std::string uri;
  try {
    uri = RequiredString(params, "uri");
  } catch (const JsonRpcFault&) {
    AuditResourceRead(context, uri, "invalid_params", "", elapsed());
    throw;
  }
  std::optional<Json> contents;
  std::string_view failure = "resource_not_found";  // §14 code names, never JSON-RPC numbers
  std::string refusal;
  try {
    contents = ReadContents(context.principal, uri);
  } catch (const DomainError& error) {
    if (IsOutage(error)) {
      AuditResourceRead(context, uri, "error", error.code().code, elapsed());
      throw OutageFault(error);
    }
    failure = ReadFailureCode(error);
    if (failure == "forbidden") refusal = error.what();
    if (failure == "internal_error") {
      spdlog::error("correlation_id={} resources/read {}: {}", context.correlation_id, uri,
                    error.code().code);
    }
  } catch (const std::exception& e) {
    failure = "internal_error";
    spdlog::error("correlation_id={} resources/read {}: {}", context.correlation_id, uri, e.what());
  }
  if (!contents) {
    AuditResourceRead(context, uri, "error", failure, elapsed());
    if (failure == "internal_error") {
      throw JsonRpcFault(jsonrpc::kInternalError,
                         "Internal error; quote the correlation id to an operator.");
    }
    // MCP has one resource error code; the message tells a refusal from a missing resource.
    throw JsonRpcFault(jsonrpc::kResourceNotFound,
                       failure == "forbidden"
                           ? "Resource not readable: " + uri + " (" + refusal + ")"
                           : "Resource not found: " + uri);
  }
  AuditResourceRead(context, uri, "success", "", elapsed());
  return Json{{"contents", std::move(*contents)}};
}

void McpServer::AuditResourceRead(const McpRequestContext& context, const std::string& uri,
                                  std::string_view outcome, std::string_view code,
                                  double elapsed_ms) {
  AuditEvent event;
  event.event = "mcp.resource.read";
  event.user_id = context.principal.user_id;
  event.key_id = context.principal.key_id;
  event.workspace_id = context.principal.workspace_id;
  event.correlation_id = context.correlation_id;
  event.source_ip = context.source_ip;
  event.details = {{"uri", uri}, {"outcome", std::string(outcome)}};
  if (!code.empty()) event.details["code"] = std::string(code);
  event.details["elapsed_ms"] = static_cast<int64_t>(elapsed_ms);
  audit_.Record(event);
}

}  // namespace dp
