#include "datapipelines/rest/pipeline_routes.hpp"

#include <atomic>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/net/event_stream.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/check_run_service.hpp"
#include "datapipelines/service/execution_service.hpp"
#include "datapipelines/service/pipeline_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kPrefix = "/api/v1/pipelines";

PipelineListQuery QueryFrom(const HttpRequest& request) {
  PipelineListQuery query;
  query.owner = QueryParam(request.query, "owner");
  query.datasource = QueryParam(request.query, "datasource");
  query.q = QueryParam(request.query, "q");
  query.prefix = QueryParam(request.query, "prefix");
  ParseListWindow(request, query.limit, query.offset);
  return query;
}

Json ListData(const PipelineListing& listing, const PipelineListQuery& query) {
  if (listing.browse) return listing.BrowseJson();
  return PagedItems(listing.items, query.offset, query.limit, listing.total, listing.has_more);
}

// If-Match carries the body_hash precondition (rest-api §5.5); quotes are tolerated.
std::optional<std::string> IfMatch(const HttpRequest& request) {
  auto value = request.headers.Get("If-Match");
  if (!value || value->empty()) return std::nullopt;
  std::string text(*value);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    text = text.substr(1, text.size() - 2);
  }
  return text;
}

class Routes {
 public:
  Routes(PipelineService& pipelines, ExecutionService& executions, CheckRunService& checks,
         const HttpRequest& request, const Principal& principal)
      : pipelines_(pipelines),
        executions_(executions),
        checks_(checks),
        request_(request),
        principal_(principal) {}

  std::optional<HttpResponse> Dispatch(const std::vector<std::string>& s) {
    const std::string& method = request_.method;
    if (s.empty()) {
      if (method == "GET") return List();
      if (method == "POST") {
        // A person choosing a folder in a form has already decided: no root confirmation.
        return Ok(pipelines_.Create(principal_, ParseBody(request_), PipelineWriteFlags{}), 201);
      }
      return std::nullopt;
    }
    const std::string& id = s[0];
    if (s.size() == 1) return Entity(id);
    if (s.size() == 2) return Verb(id, s[1]);
    if (s.size() == 3 && s[1] == "versions" && method == "GET") {
      return Ok(pipelines_.Get(principal_, id, ParseIntField(s[2], "version")));
    }
    // Release checks (rest-api §5.16): the latest run per check, and a fresh run.
    if (s.size() == 4 && s[1] == "versions" && s[3] == "checks" && method == "GET") {
      return Ok(checks_.Latest(principal_, id, ParseIntField(s[2], "version")));
    }
    if (s.size() == 5 && s[1] == "versions" && s[3] == "checks" && s[4] == "run" &&
        method == "POST") {
      return Ok(RunChecks(id, ParseIntField(s[2], "version")));
    }
    if (s.size() == 3 && s[1] == "draft" && s[2] == "discard" && method == "POST") {
      pipelines_.PurgeDraft(principal_, id, IfMatch(request_));
      return NoContent();
    }
    return std::nullopt;
  }

 private:
  HttpResponse Ok(Json data, int status = 200) {
    return SuccessEnvelope(std::move(data), request_.correlation_id, status);
  }

  HttpResponse List() {
    PipelineListQuery query = QueryFrom(request_);
    return Ok(ListData(pipelines_.List(principal_, query), query));
  }

  std::optional<HttpResponse> Entity(const std::string& id) {
    const std::string& method = request_.method;
    if (method == "GET") return Ok(pipelines_.Get(principal_, id, std::nullopt));
    if (method == "DELETE") return Ok(pipelines_.Delete(principal_, id));
    if (method != "PUT") return std::nullopt;
    Json body = ParseBody(request_);
    std::optional<std::string> expected = IfMatch(request_);
    if (!expected && body.contains("expected_hash") && body["expected_hash"].is_string()) {
      expected = body["expected_hash"].get<std::string>();
    }
    if (!expected) {
      throw DomainError(errc::kRequestInvalid,
                        "An update names the body_hash it is based on: send If-Match.",
                        Json{{"field", "If-Match"}, {"reason", "precondition_missing"}});
    }
    body.erase("expected_hash");
    return Ok(pipelines_.Update(principal_, id, *expected, body, PipelineWriteFlags{}));
  }

  std::optional<HttpResponse> Verb(const std::string& id, const std::string& verb) {
    const std::string& method = request_.method;
    if (verb == "versions" && method == "GET") return Ok(pipelines_.ListVersions(principal_, id));
    if (verb == "parameters" && method == "GET") return Ok(pipelines_.Parameters(principal_, id));
    if (verb == "execute" && method == "POST") return Execute(id);
    if (verb == "release" && method == "POST") {
      return Ok(pipelines_.Release(principal_, id, IfMatch(request_),
                                   QueryParam(request_.query, "override_checks_reason")));
    }
    return std::nullopt;
  }

  // The execute request (rest-api §6.1): {version?, parameters?}; DP-Result-TTL-Seconds.
  HttpResponse Execute(const std::string& id) {
    Json body = request_.body.empty() ? Json::object() : ParseBody(request_);
    ExecuteRequest request;
    request.pipeline_id = id;
    if (body.contains("version")) {
      if (!body["version"].is_number_integer()) throw InvalidField("version", "must be an integer");
      request.version = body["version"].get<int>();
    }
    request.parameters = body.value("parameters", Json::object());
    if (!request.parameters.is_object()) throw InvalidField("parameters", "must be an object");
    if (auto ttl = request_.headers.Get("DP-Result-TTL-Seconds")) {
      request.ttl_seconds = ExecutionService::ParseResultTtlHeader(*ttl);
    }
    request.surface = ExecutionSurface::kHuman;
    request.correlation_id = request_.correlation_id;
    if (auto key = request_.headers.Get("Idempotency-Key"); key && !key->empty()) {
      if (key->size() > 255)
        throw InvalidField("Idempotency-Key", "must be at most 255 characters");
      request.idempotency_key = std::string(*key);
    }
    auto accept = request_.headers.Get("Accept");
    if (accept && accept->find("text/event-stream") != std::string_view::npos) {
      return ExecuteStreamed(std::move(request));
    }
    return Ok(executions_.Execute(principal_, request));
  }

  // rest-api §6: the execution's events as SSE on this POST (`id`, `event`, `data` per event),
  // closed after the terminal event. A refusal before the first event (a bad parameter, no
  // such version) still answers its own status with the error envelope; a client that
  // disconnects cancels the run after the grace period (§6.8).
  HttpResponse ExecuteStreamed(ExecuteRequest request) {
    auto events = std::make_shared<EventStream>();
    auto first = std::make_shared<std::promise<std::optional<DomainError>>>();
    auto signalled = std::make_shared<std::atomic<bool>>(false);
    auto signal = [first, signalled](std::optional<DomainError> refusal) {
      if (!signalled->exchange(true)) first->set_value(std::move(refusal));
    };
    request.on_event = [events, signal](int64_t seq, const std::string& type, const Json& data) {
      signal(std::nullopt);
      events->Write("id: " + std::to_string(seq) + "\nevent: " + type + "\ndata: " + data.dump() +
                    "\n\n");
    };
    request.caller_gone = [events] { return events->cancelled(); };
    std::thread([&executions = executions_, principal = principal_, request, events, signal,
                 signalled] {
      try {
        Json out = executions.Execute(principal, request);
        if (!signalled->load()) {
          // An Idempotency-Key retry ran nothing: replay the original's recorded events.
          signal(std::nullopt);
          for (const Json& e : executions.Events(principal, out["execution_id"])) {
            events->Write("id: " + std::to_string(e["seq"].get<int64_t>()) + "\nevent: " +
                          e["type"].get<std::string>() + "\ndata: " + e["data"].dump() + "\n\n");
          }
        }
      } catch (const DomainError& error) {
        signal(error);  // a refusal before any event; after one, the terminal event said it
      } catch (const std::exception&) {
        signal(DomainError(errc::kInternal, "Internal error."));
      }
      signal(std::nullopt);
      events->Close();
    }).detach();
    if (auto refusal = first->get_future().get()) {
      return ErrorEnvelope(*refusal, request_.correlation_id);
    }
    HttpResponse response;
    response.stream = std::move(events);
    return response;
  }

  // The check run request (rest-api §5.16): {parameters?}; via = rest.
  Json RunChecks(const std::string& id, int version) {
    Json body = request_.body.empty() ? Json::object() : ParseBody(request_);
    if (!body.is_object()) throw InvalidField("body", "must be a JSON object");
    CheckRunRequest request;
    request.pipeline_id = id;
    request.version = version;
    request.parameters = body.value("parameters", Json::object());
    if (!request.parameters.is_object()) throw InvalidField("parameters", "must be an object");
    request.via = "rest";
    request.correlation_id = request_.correlation_id;
    return checks_.Run(principal_, request);
  }

  PipelineService& pipelines_;
  ExecutionService& executions_;
  CheckRunService& checks_;
  const HttpRequest& request_;
  const Principal& principal_;
};

}  // namespace

RestResource PipelineRoutes(PipelineService& pipelines, ExecutionService& executions,
                            CheckRunService& checks) {
  return
      [&pipelines, &executions, &checks](
          const HttpRequest& request, const Principal& principal) -> std::optional<HttpResponse> {
        auto segments = PathSegmentsBelow(request.path, kPrefix);
        if (!segments) return std::nullopt;
        return Routes(pipelines, executions, checks, request, principal).Dispatch(*segments);
      };
}

}  // namespace dp
