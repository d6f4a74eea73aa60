#include "datapipelines/rest/workspace_routes.hpp"

#include "datapipelines/domain/domain_error.hpp"
#include "datapipelines/domain/error_codes.hpp"
#include "datapipelines/domain/request_fields.hpp"
#include "datapipelines/net/envelope.hpp"
#include "datapipelines/rest/rest_router.hpp"
#include "datapipelines/rest/rest_support.hpp"
#include "datapipelines/service/identity/access_policy.hpp"
#include "datapipelines/service/identity/workspace_service.hpp"
#include "datapipelines/util/percent_encoding.hpp"

namespace dp {
namespace {

constexpr std::string_view kWorkspacesPrefix = "/api/v1/workspaces";

// A body's three flags, each optional and false when absent: a body that says nothing asks
// for a viewer.
MemberFlags FlagsOf(const Json& body) {
  return MemberFlags{OptionalBoolField(body, "author").value_or(false),
                     OptionalBoolField(body, "promoter").value_or(false),
                     OptionalBoolField(body, "admin").value_or(false)};
}

// The workspace name a path below the prefix names ("/team/members" → "team"); nullopt for the
// collection itself.
std::optional<std::string> NamedWorkspace(const std::string& path) {
  if (path.size() <= kWorkspacesPrefix.size() + 1) return std::nullopt;
  std::string_view rest = std::string_view(path).substr(kWorkspacesPrefix.size() + 1);
  return PercentDecodeLenient(rest.substr(0, rest.find('/')));
}

RestRouter WorkspaceTable(WorkspaceService& w) {
  RestRouter router{std::string(kWorkspacesPrefix)};
  router
      .On("POST", "", Operation::kWorkspacesCreate,
          [&w](const RestCall& c) {
            Json body = ParseBody(c.request);
            return c.Ok(w.Create(c.principal, RequiredString(body, "name"),
                                 OptionalStringField(body, "display_name").value_or("")),
                        201);
          })
      .On("GET", "/{name}", Operation::kWorkspacesGet,
          [&w](const RestCall& c) { return c.Ok(w.Get(c.principal)); })
      .On("PUT", "/{name}", Operation::kWorkspacesUpdate,
          [&w](const RestCall& c) {
            Json body = ParseBody(c.request);
            return c.Ok(w.Update(c.principal, OptionalStringField(body, "display_name")));
          })
      .On("POST", "/{name}/deactivate", Operation::kWorkspacesDeactivate,
          [&w](const RestCall& c) { return c.Ok(w.SetActive(c.principal, false)); })
      .On("POST", "/{name}/reactivate", Operation::kWorkspacesDeactivate,
          [&w](const RestCall& c) { return c.Ok(w.SetActive(c.principal, true)); })
      .On("GET", "/{name}/members", Operation::kWorkspaceMembersList,
          [&w](const RestCall& c) { return c.Ok(w.Members(c.principal)); })
      .On("POST", "/{name}/members", Operation::kWorkspaceMembersSet,
          [&w](const RestCall& c) {
            Json body = ParseBody(c.request);
            AddedMember added =
                w.AddMember(c.principal, RequiredString(body, "email"), FlagsOf(body));
            // 202 for an invitation: nobody by that e-mail exists yet.
            return c.Ok(std::move(added.view), added.invited ? 202 : 200);
          })
      .On("PUT", "/{name}/members/{user_id}", Operation::kWorkspaceMembersSet,
          [&w](const RestCall& c) {
            return c.Ok(
                w.SetMemberFlags(c.principal, c.Param("user_id"), FlagsOf(ParseBody(c.request))));
          })
      .On("DELETE", "/{name}/members/{user_id}", Operation::kWorkspaceMembersRemove,
          [&w](const RestCall& c) {
            w.RemoveMember(c.principal, c.Param("user_id"));
            return NoContent();
          })
      .On("DELETE", "/{name}/invitations/{email}", Operation::kWorkspaceMembersRemove,
          [&w](const RestCall& c) {
            w.RevokeInvitation(c.principal, c.Param("email"));
            return NoContent();
          });
  return router;
}

}  // namespace

RestResource WorkspaceRoutes(WorkspaceService& workspaces) {
  RestResource table = WorkspaceTable(workspaces).Resource();
  // Which workspaces am I in: a person in none gets the empty list rather than a refusal, so
  // it is judged before any workspace is selected (a key still needs its issuer a member).
  table.routes.insert(table.routes.begin(),
                      {"GET", std::string(kWorkspacesPrefix), Operation::kWorkspacesList});
  auto by_name = table.handle;
  table.handle = [&workspaces, by_name](const HttpRequest& request,
                                        const Principal& principal) -> std::optional<HttpResponse> {
    std::optional<std::string> name = NamedWorkspace(request.path);
    if (!name) {
      if (request.method != "GET") return by_name(request, principal);
      if (!principal.via_session) EnforceAccess(principal, Operation::kWorkspacesList);
      return SuccessEnvelope(workspaces.ListOwn(principal), request.correlation_id);
    }
    const AccessTarget target{"rest", request.method, request.path, request.correlation_id,
                              request.remote_ip};
    return by_name(request, workspaces.Enter(principal, *name, target));
  };
  return table;
}

RestResource UserRoutes(WorkspaceService& w) {
  RestRouter router{"/api/v1/auth/users"};
  router
      .On("GET", "", Operation::kUsersList,
          [&w](const RestCall& c) {
            auto number = [&](const char* name, int fallback) {
              auto text = QueryParam(c.request.query, name);
              if (!text || text->empty()) return fallback;
              try {
                return std::stoi(*text);
              } catch (const std::exception&) {
                throw InvalidField(name, "must be an integer");
              }
            };
            return c.Ok(w.ListUsers(c.principal, QueryParam(c.request.query, "q").value_or(""),
                                    number("offset", 0), number("limit", 50)));
          })
      .On("GET", "/{user_id}", Operation::kUsersList,
          [&w](const RestCall& c) { return c.Ok(w.GetUser(c.principal, c.Param("user_id"))); })
      .On("POST", "/{user_id}/deactivate", Operation::kUsersSetActive,
          [&w](const RestCall& c) {
            return c.Ok(w.SetUserActive(c.principal, c.Param("user_id"), false));
          })
      .On("POST", "/{user_id}/activate", Operation::kUsersSetActive,
          [&w](const RestCall& c) {
            return c.Ok(w.SetUserActive(c.principal, c.Param("user_id"), true));
          })
      .On("POST", "/{user_id}/grant-admin", Operation::kUsersSetSuperAdmin,
          [&w](const RestCall& c) {
            return c.Ok(w.SetSuperAdmin(c.principal, c.Param("user_id"), true));
          })
      .On("POST", "/{user_id}/revoke-admin", Operation::kUsersSetSuperAdmin,
          [&w](const RestCall& c) {
            return c.Ok(w.SetSuperAdmin(c.principal, c.Param("user_id"), false));
          });
  return std::move(router).Resource();
}

}  // namespace dp
