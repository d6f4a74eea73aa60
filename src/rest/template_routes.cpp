#include "datapipelines/rest/template_routes.hpp"

#include <charconv>
#include <string>
#include <vector>

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_router.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/templates/template_service.hpp"

namespace dp {
namespace {

constexpr std::string_view kTemplatesPrefix = "/api/v1/templates";

TemplateListQuery TemplateQueryFrom(const HttpRequest& request) {
  return TemplateListQuery::FromJson(
      QueryArguments(request, {.strings = {"dialect", "type", "q", "prefix"},
                               .integers = {"limit", "offset"},
                               .booleans = {"is_library"}}));
}

Json TemplateListData(const TemplateListing& listing, const TemplateListQuery& query) {
  if (listing.browse) return listing.BrowseJson();
  return PagedItems(listing.items, query.window.offset, query.window.limit, listing.total,
                    listing.has_more);
}

Json RenderContext(const HttpRequest& request) {
  Json body = ParseBody(request);
  auto it = body.find("context");
  if (it == body.end() || !it->is_object()) throw InvalidField("context", "must be an object");
  return *it;
}

HttpResponse Update(TemplateService& templates, const RestCall& call) {
  Json body = ParseBody(call.request);
  TemplateWrite write = TemplateWrite::FromJson(body);
  return call.Ok(templates.Update(call.principal, call.Param("id"),
                                  RequiredString(body, "expected_hash"), write,
                                  TemplateSurface::kHuman));
}

HttpResponse Release(TemplateService& templates, const RestCall& call) {
  std::optional<std::string> expected;
  if (!call.request.body.empty()) {
    expected = OptionalStringField(ParseBody(call.request), "expected_hash");
  }
  return call.Ok(templates.Release(call.principal, call.Param("id"), expected));
}

}  // namespace

RestResource TemplateRoutes(TemplateService& templates) {
  auto& t = templates;
  RestRouter router{std::string(kTemplatesPrefix)};
  router
      .On("GET", "", Operation::kTemplatesList,
          [&t](const RestCall& c) {
            TemplateListQuery query = TemplateQueryFrom(c.request);
            return c.Ok(TemplateListData(t.List(c.principal, query), query));
          })
      .On("POST", "", Operation::kTemplatesCreate,
          [&t](const RestCall& c) {
            // A person choosing a folder in a form has already decided: no new-root
            // confirmation.
            return c.Ok(t.Create(c.principal, TemplateWrite::FromJson(ParseBody(c.request)), true,
                                 TemplateSurface::kHuman),
                        201);
          })
      .On("GET", "/{id}", Operation::kTemplatesGet,
          [&t](const RestCall& c) { return c.Ok(t.Get(c.principal, c.Param("id"), std::nullopt)); })
      .On("PUT", "/{id}", Operation::kTemplatesUpdate,
          [&t](const RestCall& c) { return Update(t, c); })
      .On("DELETE", "/{id}", Operation::kTemplatesDelete,
          [&t](const RestCall& c) {
            t.Delete(c.principal, c.Param("id"));
            return NoContent();
          })
      .On("GET", "/{id}/versions", Operation::kTemplatesListVersions,
          [&t](const RestCall& c) { return c.Ok(t.ListVersions(c.principal, c.Param("id"))); })
      .On("POST", "/{id}/render", Operation::kTemplatesRender,
          [&t](const RestCall& c) {
            return c.Ok(
                t.Render(c.principal, c.Param("id"), std::nullopt, RenderContext(c.request)));
          })
      .On("POST", "/{id}/purge-draft", Operation::kTemplatesPurgeDraft,
          [&t](const RestCall& c) { return c.Ok(t.PurgeDraft(c.principal, c.Param("id"))); })
      .On("POST", "/{id}/release", Operation::kTemplatesRelease,
          [&t](const RestCall& c) { return Release(t, c); })
      .On("GET", "/{id}/versions/{version}", Operation::kTemplatesGet,
          [&t](const RestCall& c) {
            return c.Ok(t.Get(c.principal, c.Param("id"), c.IntParam("version")));
          })
      .On("POST", "/{id}/versions/{version}/render", Operation::kTemplatesRender,
          [&t](const RestCall& c) {
            return c.Ok(t.Render(c.principal, c.Param("id"), c.IntParam("version"),
                                 RenderContext(c.request)));
          })
      .On("GET", "/{id}/versions/{version}/used-by", Operation::kTemplatesUsedBy,
          [&t](const RestCall& c) {
            return c.Ok(t.UsedBy(c.principal, c.Param("id"), c.IntParam("version")));
          })
      .On("POST", "/{id}/versions/{version}/discard", Operation::kTemplatesDiscard,
          [&t](const RestCall& c) {
            return c.Ok(t.Discard(c.principal, c.Param("id"), c.IntParam("version")));
          });
  return std::move(router).Resource();
}

}  // namespace dp
