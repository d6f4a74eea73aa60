#pragma once
// /api/v1/workspaces (REST API §17) and /api/v1/auth/users (§16.3): workspaces listed, created,
// read, renamed, deactivated and reactivated; their members and invitations; the instance's
// people. A path naming a workspace selects it, as DP-Workspace does, before the route's floor
// is judged — so the floor is the caller's standing in THAT workspace. One WorkspaceService.
#include "datapipelines/rest/rest_api.hpp"

namespace dp {

class WorkspaceService;

RestResource WorkspaceRoutes(WorkspaceService& workspaces);
RestResource UserRoutes(WorkspaceService& workspaces);

}  // namespace dp
