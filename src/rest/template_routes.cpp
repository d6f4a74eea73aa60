#include "datapipelines/rest/template_routes.hpp"

#include <charconv>
#include <string>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/template_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kPrefix = "/api/v1/templates";

TemplateListQuery QueryFrom(const HttpRequest& request) {
  TemplateListQuery query;
  query.dialect = QueryParam(request.query, "dialect");
  query.type = QueryParam(request.query, "type");
  query.q = QueryParam(request.query, "q");
  query.prefix = QueryParam(request.query, "prefix");
  if (auto lib = QueryParam(request.query, "is_library")) {
    if (*lib != "true" && *lib != "false") throw InvalidField("is_library", "must be true or false");
    query.is_library = *lib == "true";
  }
  ParseListWindow(request, query.limit, query.offset);
  return query;
}

Json ListData(const TemplateListing& listing, const TemplateListQuery& query) {
  if (listing.browse) return listing.BrowseJson();
  return PagedItems(listing.items, query.offset, query.limit, listing.total, listing.has_more);
}

Json RenderContext(const HttpRequest& request) {
  Json body = ParseBody(request);
  auto it = body.find("context");
  if (it == body.end() || !it->is_object()) throw InvalidField("context", "must be an object");
  return *it;
}

class Routes {
 public:
  Routes(TemplateService& templates, const HttpRequest& request, const Principal& principal)
      : templates_(templates), request_(request), principal_(principal) {}

  std::optional<HttpResponse> Dispatch(const std::vector<std::string>& s) {
    const std::string& method = request_.method;
    if (s.empty()) {
      if (method == "GET") return List();
      if (method == "POST") return Ok(Create(), 201);
      return std::nullopt;
    }
    const std::string& id = s[0];
    if (s.size() == 1) return Entity(id);
    if (s.size() == 2) return Verb(id, s[1]);
    if (s[1] != "versions") return std::nullopt;
    int version = ParseIntField(s[2], "version");
    if (s.size() == 3 && method == "GET") return Ok(templates_.Get(principal_, id, version));
    if (s.size() != 4) return std::nullopt;
    if (s[3] == "render" && method == "POST") {
      return Ok(templates_.Render(principal_, id, version, RenderContext(request_)));
    }
    if (s[3] == "used-by" && method == "GET") {
      return Ok(templates_.UsedBy(principal_, id, version));
    }
    if (s[3] == "discard" && method == "POST") {
      return Ok(templates_.Discard(principal_, id, version));
    }
    return std::nullopt;
  }

 private:
  HttpResponse Ok(Json data, int status = 200) {
    return SuccessEnvelope(std::move(data), request_.correlation_id, status);
  }

  HttpResponse List() {
    TemplateListQuery query = QueryFrom(request_);
    return Ok(ListData(templates_.List(principal_, query), query));
  }

  Json Create() {
    // A person choosing a folder in a form has already decided: no new-root confirmation.
    return templates_.Create(principal_, TemplateWrite::FromJson(ParseBody(request_)), true,
                             TemplateSurface::kHuman);
  }

  std::optional<HttpResponse> Entity(const std::string& id) {
    const std::string& method = request_.method;
    if (method == "GET") return Ok(templates_.Get(principal_, id, std::nullopt));
    if (method == "DELETE") {
      templates_.Delete(principal_, id);
      return NoContent();
    }
    if (method != "PUT") return std::nullopt;
    Json body = ParseBody(request_);
    TemplateWrite write = TemplateWrite::FromJson(body);
    if (write.id && *write.id != id) throw InvalidField("id", "cannot change (there is no rename)");
    write.id.reset();
    return Ok(templates_.Update(principal_, id, RequiredString(body, "expected_hash"), write,
                                TemplateSurface::kHuman));
  }

  std::optional<HttpResponse> Verb(const std::string& id, const std::string& verb) {
    const std::string& method = request_.method;
    if (verb == "versions" && method == "GET") return Ok(templates_.ListVersions(principal_, id));
    if (verb == "render" && method == "POST") {
      return Ok(templates_.Render(principal_, id, std::nullopt, RenderContext(request_)));
    }
    if (verb == "purge-draft" && method == "POST") {
      return Ok(templates_.PurgeDraft(principal_, id));
    }
    if (verb == "release" && method == "POST") {
      std::optional<std::string> expected;
      if (!request_.body.empty())
        expected = OptionalStringField(ParseBody(request_), "expected_hash");
      return Ok(templates_.Release(principal_, id, expected));
    }
    return std::nullopt;
  }

  TemplateService& templates_;
  const HttpRequest& request_;
  const Principal& principal_;
};

}  // namespace

RestResource TemplateRoutes(TemplateService& templates) {
  return [&templates](const HttpRequest& request,
                      const Principal& principal) -> std::optional<HttpResponse> {
    auto segments = PathSegmentsBelow(request.path, kPrefix);
    if (!segments) return std::nullopt;
    return Routes(templates, request, principal).Dispatch(*segments);
  };
}

}  // namespace dp
