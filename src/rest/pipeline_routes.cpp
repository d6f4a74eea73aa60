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
#include "datapipelines/rest/rest_router.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/executions/execution_service.hpp"
#include "datapipelines/service/pipelines/check_run_service.hpp"
#include "datapipelines/service/pipelines/pipeline_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kPipelinesPrefix = "/api/v1/pipelines";

PipelineListQuery PipelineQueryFrom(const HttpRequest& request) {
  return PipelineListQuery::FromJson(QueryArguments(
      request,
      {.strings = {"owner", "datasource", "q", "prefix"}, .integers = {"limit", "offset"}}));
}

Json PipelineListData(const PipelineListing& listing, const PipelineListQuery& query) {
  if (listing.browse) return listing.BrowseJson();
  return PagedItems(listing.items, query.window.offset, query.window.limit, listing.total,
                    listing.has_more);
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

  HttpResponse Ok(Json data, int status = 200) {
    return SuccessEnvelope(std::move(data), request_.correlation_id, status);
  }

  HttpResponse List() {
    PipelineListQuery query = PipelineQueryFrom(request_);
    return Ok(PipelineListData(pipelines_.List(principal_, query), query));
  }

  HttpResponse Update(const std::string& id) {
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
  // The request's handlers over the three services.
  auto r = [&pipelines, &executions, &checks](const RestCall& c) {
    return Routes(pipelines, executions, checks, c.request, c.principal);
  };
  auto& p = pipelines;
  RestRouter router{std::string(kPipelinesPrefix)};
  router.On("GET", "", Operation::kPipelinesList, [r](const RestCall& c) { return r(c).List(); })
      .On("POST", "", Operation::kPipelinesCreate,
          [&p](const RestCall& c) {
            // A person choosing a folder in a form has already decided: no root confirmation.
            return c.Ok(p.Create(c.principal, ParseBody(c.request), PipelineWriteFlags{}), 201);
          })
      .On("GET", "/{id}", Operation::kPipelinesGet,
          [&p](const RestCall& c) { return c.Ok(p.Get(c.principal, c.Param("id"), std::nullopt)); })
      .On("PUT", "/{id}", Operation::kPipelinesUpdate,
          [r](const RestCall& c) { return r(c).Update(c.Param("id")); })
      .On("DELETE", "/{id}", Operation::kPipelinesDelete,
          [&p](const RestCall& c) { return c.Ok(p.Delete(c.principal, c.Param("id"))); })
      .On("GET", "/{id}/versions", Operation::kPipelinesListVersions,
          [&p](const RestCall& c) { return c.Ok(p.ListVersions(c.principal, c.Param("id"))); })
      .On("GET", "/{id}/parameters", Operation::kPipelinesGet,
          [&p](const RestCall& c) { return c.Ok(p.Parameters(c.principal, c.Param("id"))); })
      .On("POST", "/{id}/execute", Operation::kPipelinesExecute,
          [r](const RestCall& c) { return r(c).Execute(c.Param("id")); })
      .On("POST", "/{id}/release", Operation::kPipelinesRelease,
          [&p](const RestCall& c) {
            return c.Ok(p.Release(c.principal, c.Param("id"), IfMatch(c.request),
                                  QueryParam(c.request.query, "override_checks_reason")));
          })
      .On("GET", "/{id}/versions/{version}", Operation::kPipelinesGet,
          [&p](const RestCall& c) {
            return c.Ok(p.Get(c.principal, c.Param("id"), c.IntParam("version")));
          })
      // Release checks (rest-api §5.16): the latest run per check, and a fresh run.
      .On("GET", "/{id}/versions/{version}/checks", Operation::kPipelinesLatestChecks,
          [&checks](const RestCall& c) {
            return c.Ok(checks.Latest(c.principal, c.Param("id"), c.IntParam("version")));
          })
      .On("POST", "/{id}/versions/{version}/checks/run", Operation::kPipelinesRunChecks,
          [r](const RestCall& c) {
            return c.Ok(r(c).RunChecks(c.Param("id"), c.IntParam("version")));
          })
      .On("POST", "/{id}/draft/discard", Operation::kPipelinesPurgeDraft, [&p](const RestCall& c) {
        p.PurgeDraft(c.principal, c.Param("id"), IfMatch(c.request));
        return NoContent();
      });
  return std::move(router).Resource();
}

}  // namespace dp
