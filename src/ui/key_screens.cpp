// API keys (ui-screens §4.10, §4.18) and "Connect an agent" (spec §11.1): the scope picker with
// the sentence about which scope an agent needs, the plaintext shown once on the answer to the
// create POST (never in a URL, never again), revoke; the MCP URL and copy-paste configs for
// Claude Code, Claude Desktop, Cursor and a generic HTTP client, the new key filled in.
#include "datapipelines/service/identity/api_key_view.hpp"
#include "datapipelines/service/identity/auth_service.hpp"
#include "ui/ui_context.hpp"

namespace dp::ui {
namespace {

constexpr std::string_view kKeyPlaceholder = "dpk_YOUR_KEY";

std::string McpUrl(const UiContext& ctx) {
  std::string host(ctx.http.headers.Get("Host").value_or("localhost"));
  auto proto = ctx.http.headers.Get("X-Forwarded-Proto");
  std::string scheme = proto && *proto == "https" ? "https" : "http";
  return scheme + "://" + host + "/mcp";
}

Json Snippets(const std::string& url, const std::string& key) {
  Json desktop = {
      {"mcpServers",
       {{"datapipelines",
         {{"command", "npx"},
          {"args", {"-y", "mcp-remote", url, "--header", "Authorization: Bearer " + key}}}}}}};
  Json cursor = {
      {"mcpServers", {{"datapipelines", {{"url", url}, {"headers", {{"DP-API-Key", key}}}}}}}};
  return Json{{"claude_code", "claude mcp add --transport http datapipelines " + url +
                                  " --header \"DP-API-Key: " + key + "\""},
              {"claude_desktop", desktop.dump(2)},
              {"cursor", cursor.dump(2)},
              {"generic", "URL:     " + url + "\nHeader:  DP-API-Key: " + key +
                              "\n   or:   Authorization: Bearer " + key + "\n\ncurl -s " + url +
                              " -H 'Content-Type: application/json' \\\n"
                              "  -H 'Accept: application/json, text/event-stream' \\\n"
                              "  -H 'Authorization: Bearer " +
                              key +
                              "' \\\n"
                              "  -d '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}'"}};
}

HttpResponse Render(UiContext& ctx, const std::string& page, const IssuedApiKey* issued) {
  Json keys = Json::array();
  for (const auto& key : ctx.s.auth.keys().ListApiKeys(ctx.principal))
    keys.push_back(ApiKeyView(key));
  AddHrefs(keys, "/ui/" + page, "id");
  std::string url = McpUrl(ctx);
  Json model{{"keys", keys},
             {"mcp_url", url},
             // Viewers and promoters issue no key; an author's keys reach author scope.
             {"max_scope", ctx.can.author ? std::string(ToString(ctx.principal.scope)) : "none"}};
  if (issued) {
    model["issued"] = ApiKeyView(issued->record);
    model["issued"]["api_key"] = issued->plaintext;
  }
  model["snippets"] = Snippets(url, issued ? issued->plaintext : std::string(kKeyPlaceholder));
  return ctx.Page(page, std::move(model), page == "connect" ? "connect" : "keys");
}

}  // namespace

std::optional<HttpResponse> KeyScreens(UiContext& ctx, const std::vector<std::string>& s) {
  if (s.empty() || (s[0] != "keys" && s[0] != "connect")) return std::nullopt;
  const std::string page = s[0];
  if (s.size() == 1 && !ctx.IsPost()) return Render(ctx, page, nullptr);
  if (s.size() == 1 && ctx.IsPost()) {
    try {
      // The form's fields read by the same parser as POST /api/v1/keys: its defaults and
      // refusals (admin is auth.key_scope_unavailable) are the service's, not this screen's.
      const ApiKeyIssueRequest create = ApiKeyIssueRequest::FromJson(
          Json{{"name", ctx.FormOr("name")}, {"scope", ctx.FormOr("scope", "read")}});
      IssuedApiKey issued = ctx.s.auth.keys().CreateApiKey(ctx.principal, create);
      return Render(ctx, page, &issued);  // 200 with the plaintext: shown once, never in a URL
    } catch (const DomainError& refusal) {
      ctx.refusal = refusal;
      return Render(ctx, page, nullptr);
    }
  }
  if (s.size() == 3 && s[2] == "revoke" && ctx.IsPost()) {
    try {
      ctx.s.auth.keys().RevokeApiKey(ctx.principal, s[1]);
      return UiContext::Redirect("/ui/" + page, "revoked");
    } catch (const DomainError& refusal) {
      ctx.refusal = refusal;
      return Render(ctx, page, nullptr);
    }
  }
  return std::nullopt;
}

}  // namespace dp::ui
