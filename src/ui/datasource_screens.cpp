// Datasources (ui-screens §4.5, §4.5a grants, §4.5b learned facts): the list, register / edit /
// test for workspace admins, grants for instance admins. The password field is write-only: it is
// never rendered back (the view carries password_set only), and an edit that leaves it empty
// keeps the stored one.
#include "datapipelines/service/datasources/datasource_service.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {

namespace {

// The REST create/update body (rest.md "Body") from the form's fields.
Json BodyFromForm(const UiContext& ctx, bool create) {
  Json body = Json::object();
  for (const char* field :
       {"name", "display_name", "description", "dialect", "jdbc_url", "username"}) {
    if (!create && std::string_view(field) == "name") continue;
    if (auto value = ctx.Form(field)) body[field] = *value;
  }
  if (auto password = ctx.Form("password"); password && !password->empty())
    body["password"] = *password;
  if (auto timeout = ctx.Form("query_timeout_seconds"); timeout && !timeout->empty()) {
    body["query_timeout_seconds"] = ParseInt(*timeout, "query_timeout_seconds");
  }
  body["readonly"] = ctx.Form("readonly").has_value();
  if (create) {
    // The form registers into the active workspace (its hidden `workspace` field).
    if (auto workspace = ctx.Form("workspace"); workspace && !workspace->empty()) {
      body["workspace"] = *workspace;
    }
    if (auto description = ctx.Form("description"); description && description->empty()) {
      body.erase("description");
    }
  }
  return body;
}

HttpResponse DatasourceList(UiContext& ctx) {
  Json listed = ctx.s.datasources.List(ctx.principal, std::nullopt);
  AddHrefs(listed, "/ui/datasources", "name");
  Json model{{"datasources", listed}};
  if (ctx.can.super_admin) {
    Json registry = ctx.s.datasources.ListRegistry(ctx.principal);
    AddHrefs(registry, "/ui/datasources", "name");
    model["registry"] = registry;
  }
  if (ctx.refusal && ctx.IsPost()) {
    Json form = Json::object();
    for (const char* field :
         {"name", "display_name", "description", "dialect", "jdbc_url", "username"}) {
      form[field] = ctx.FormOr(field);  // the password is never echoed back
    }
    model["form"] = form;
  }
  return ctx.Page("datasources", std::move(model), "datasources");
}

HttpResponse DatasourceDetail(UiContext& ctx, const std::string& name, Json test = nullptr) {
  Json model{{"datasource", ctx.s.datasources.Get(ctx.principal, name)}};
  model["self"] = UiPath({"datasources", name});
  if (ctx.can.super_admin) {
    Json grants = ctx.s.datasources.ListGrants(ctx.principal, name)["grants"];
    AddHrefs(grants, model["self"].get<std::string>() + "/grants", "workspace");
    model["grants"] = grants;
  }
  if (!test.is_null()) model["test"] = std::move(test);
  return ctx.Page("datasource", std::move(model), "datasources");
}

HttpResponse DatasourceVerb(UiContext& ctx, const std::string& name,
                            const std::vector<std::string>& s) {
  const std::string back = UiPath({"datasources", name});
  try {
    if (s.size() == 2) {
      ctx.s.datasources.Update(ctx.principal, name, BodyFromForm(ctx, false));
      return UiContext::Redirect(back, "saved");
    }
    const std::string& verb = s[2];
    if (s.size() == 3 && verb == "test") {
      return DatasourceDetail(ctx, name, ctx.s.datasources.Test(ctx.principal, name));
    }
    if (s.size() == 3 && verb == "delete") {
      ctx.s.datasources.Delete(ctx.principal, name);
      return UiContext::Redirect("/ui/datasources", "deleted");
    }
    if (s.size() == 3 && verb == "grants") {
      ctx.s.datasources.Grant(ctx.principal, name, ctx.FormOr("workspace"));
      return UiContext::Redirect(back, "granted");
    }
    if (s.size() == 5 && verb == "grants" && s[4] == "revoke") {
      ctx.s.datasources.Revoke(ctx.principal, name, s[3]);
      return UiContext::Redirect(back, "revoked");
    }
  } catch (const DomainError& refusal) {
    ctx.refusal = refusal;
    return DatasourceDetail(ctx, name);
  }
  throw DomainError(errc::kRouteNotFound, "No such action.");
}

}  // namespace

std::optional<HttpResponse> DatasourceScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || s[0] != "datasources") return std::nullopt;
  if (s.size() == 1 && !ctx.IsPost()) return DatasourceList(ctx);
  if (s.size() == 1 && ctx.IsPost()) {
    try {
      Json created = ctx.s.datasources.Create(ctx.principal, BodyFromForm(ctx, true));
      return UiContext::Redirect(UiPath({"datasources", created.value("name", "")}), "registered");
    } catch (const DomainError& refusal) {
      ctx.refusal = refusal;
      return DatasourceList(ctx);
    }
  }
  if (s.size() == 2 && !ctx.IsPost()) return DatasourceDetail(ctx, s[1]);
  if (ctx.IsPost()) return DatasourceVerb(ctx, s[1], s);
  return std::nullopt;
}

}  // namespace dp::ui
