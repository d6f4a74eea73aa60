#pragma once
// Every operation the server authorizes — MCP tools and REST verbs alike — with its two-axis
// floor (MCP spec §4.1, auth.md §7.6: the key's scope and its issuer's role) and whether it
// writes (§14: a mutating tool call is audited as mcp.tool.write). The one table: the tool
// catalog, the REST routes, the UI's capabilities and the services all read it, through
// EnforceAccess(principal, operation).
#include <span>
#include <string_view>

#include "datapipelines/domain/access.hpp"

namespace dp {

// X(enumerator, name, scope floor, role floor, mutating), as auth.md §7.6's matrix states them. An
// MCP tool's name is its operation's name; a REST-only verb is named the way a tool would be.
#define DP_OPERATIONS(X)                                                                        \
  /* pipelines */                                                                               \
  X(kPipelinesList, "pipelines_list", kRead, kView, false)                                      \
  X(kPipelinesGet, "pipelines_get", kRead, kView, false)                                        \
  X(kPipelinesListVersions, "pipelines_list_versions", kRead, kView, false)                     \
  X(kPipelinesExecute, "pipelines_execute", kExecute, kExecute, true)                           \
  X(kPipelinesExecuteNode, "pipelines_execute_node", kAuthor, kExecute, true)                   \
  X(kPipelinesCreate, "pipelines_create", kAuthor, kAuthor, true)                               \
  X(kPipelinesUpdate, "pipelines_update", kAuthor, kAuthor, true)                               \
  X(kPipelinesRelease, "pipelines_release", kAuthor, kPromote, true)                            \
  X(kPipelinesPurgeDraft, "pipelines_purge_draft", kAuthor, kAuthor, true)                      \
  X(kPipelinesDelete, "pipelines_delete", kAuthor, kAuthor, true)                               \
  X(kPipelinesRunChecks, "pipelines_run_checks", kExecute, kExecute, true)                      \
  X(kPipelinesLatestChecks, "pipelines_latest_checks", kRead, kView, false)                     \
  /* templates */                                                                               \
  X(kTemplatesList, "templates_list", kRead, kView, false)                                      \
  X(kTemplatesGet, "templates_get", kRead, kView, false)                                        \
  X(kTemplatesListVersions, "templates_list_versions", kRead, kView, false)                     \
  X(kTemplatesUsedBy, "templates_used_by", kRead, kView, false)                                 \
  X(kTemplatesCreate, "templates_create", kAuthor, kAuthor, true)                               \
  X(kTemplatesUpdate, "templates_update", kAuthor, kAuthor, true)                               \
  X(kTemplatesRender, "templates_render", kAuthor, kAuthor, false)                              \
  X(kTemplatesPurgeDraft, "templates_purge_draft", kAuthor, kAuthor, true)                      \
  X(kTemplatesRelease, "templates_release", kAuthor, kPromote, true)                            \
  X(kTemplatesDiscard, "templates_discard", kAuthor, kAuthor, true)                             \
  X(kTemplatesDelete, "templates_delete", kAuthor, kAuthor, true)                               \
  /* datasources: the registry; the service adds its stricter rules (a signed-in person, the */ \
  /* owning workspace's admin, an instance admin for grants) above these floors */              \
  X(kDatasourcesList, "datasources_list", kRead, kView, false)                                  \
  X(kDatasourcesGet, "datasources_get", kRead, kView, false)                                    \
  X(kDatasourcesTest, "datasources_test", kAuthor, kWsAdmin, true)                              \
  X(kDatasourcesCreate, "datasources_create", kAuthor, kWsAdmin, true)                          \
  X(kDatasourcesUpdate, "datasources_update", kAuthor, kWsAdmin, true)                          \
  X(kDatasourcesDelete, "datasources_delete", kAuthor, kWsAdmin, true)                          \
  X(kDatasourcesRestore, "datasources_restore", kAuthor, kWsAdmin, true)                        \
  X(kDatasourcesListGrants, "datasources_list_grants", kAuthor, kWsAdmin, false)                \
  X(kDatasourcesGrant, "datasources_grant", kAuthor, kSuperAdmin, true)                         \
  X(kDatasourcesRevoke, "datasources_revoke", kAuthor, kSuperAdmin, true)                       \
  /* datasources: the read-only explorer */                                                     \
  X(kDatasourcesGetSchemas, "datasources_get_schemas", kAuthor, kView, false)                   \
  X(kDatasourcesGetTables, "datasources_get_tables", kAuthor, kView, false)                     \
  X(kDatasourcesGetColumns, "datasources_get_columns", kAuthor, kView, false)                   \
  X(kDatasourcesGetTableStats, "datasources_get_table_stats", kRead, kView, false)              \
  X(kDatasourcesPreviewRows, "datasources_preview_rows", kAuthor, kView, false)                 \
  X(kSqlProbe, "sql_probe", kAuthor, kView, false)                                              \
  /* executions */                                                                              \
  X(kExecutionsList, "executions_list", kRead, kView, false)                                    \
  X(kExecutionsGet, "executions_get", kRead, kView, false)                                      \
  X(kExecutionsEvents, "executions_events", kRead, kView, false)                                \
  X(kExecutionsGetResult, "executions_get_result", kRead, kView, false)                         \
  X(kExecutionsCancel, "executions_cancel", kExecute, kExecute, true)                           \
  /* calculators */                                                                             \
  X(kCalculatorsList, "calculators_list", kRead, kView, false)                                  \
  X(kCalculatorsGet, "calculators_get", kRead, kView, false)                                    \
  /* published endpoints */                                                                     \
  X(kEndpointsCreate, "endpoints_create", kAuthor, kAuthor, true)                               \
  X(kEndpointsList, "endpoints_list", kRead, kView, false)                                      \
  X(kEndpointsGet, "endpoints_get", kRead, kView, false)                                        \
  X(kEndpointsDelete, "endpoints_delete", kAuthor, kAuthor, true)                               \
  X(kEndpointsListBindings, "endpoints_list_bindings", kRead, kView, false)                     \
  X(kEndpointsBind, "endpoints_bind", kAuthor, kAuthor, true)                                   \
  X(kEndpointsUnbind, "endpoints_unbind", kAuthor, kAuthor, true)                               \
  X(kEndpointsIssueKey, "endpoints_issue_key", kAuthor, kAuthor, true)                          \
  /* lake tables */                                                                             \
  X(kLakeTablesList, "lake_tables_list", kRead, kView, false)                                   \
  X(kLakeTablesRegister, "lake_tables_register", kAuthor, kAuthor, true)                        \
  X(kLakeTablesImport, "lake_tables_import", kAuthor, kAuthor, true)                            \
  X(kLakeTablesUnregister, "lake_tables_unregister", kAuthor, kAuthor, true)                    \
  /* learned semantics; retiring (or superseding) another workspace's fact needs its admin */   \
  X(kSemanticsRecord, "semantics_record", kAuthor, kAuthor, true)                               \
  X(kSemanticsList, "semantics_list", kRead, kView, false)                                      \
  X(kSemanticsRetire, "semantics_retire", kAuthor, kAuthor, true)                               \
  X(kSemanticsRetireForeignFact, "semantics_retire_foreign_fact", kAuthor, kWsAdmin, true)      \
  /* the agent manual */                                                                        \
  X(kDocsList, "docs_list", kRead, kView, false)                                                \
  X(kDocsGet, "docs_get", kRead, kView, false)                                                  \
  /* workspace administration */                                                                \
  X(kWorkspaceMembersList, "workspace_members_list", kRead, kView, false)                       \
  X(kWorkspaceMembersSet, "workspace_members_set", kAuthor, kWsAdmin, true)                     \
  X(kWorkspaceMembersRemove, "workspace_members_remove", kAuthor, kWsAdmin, true)               \
  X(kWorkspacesList, "workspaces_list", kRead, kView, false)                                    \
  X(kWorkspacesGet, "workspaces_get", kRead, kView, false)                                      \
  X(kWorkspacesCreate, "workspaces_create", kAuthor, kSuperAdmin, true)                         \
  X(kWorkspacesUpdate, "workspaces_update", kAuthor, kWsAdmin, true)                            \
  X(kWorkspacesDeactivate, "workspaces_deactivate", kAuthor, kSuperAdmin, true)                 \
  /* instance administration: people (no create: they arrive by sign-in or the admin screen) */ \
  X(kUsersList, "users_list", kAuthor, kSuperAdmin, false)                                      \
  X(kUsersSetActive, "users_set_active", kAuthor, kSuperAdmin, true)                            \
  X(kUsersSetSuperAdmin, "users_set_super_admin", kAuthor, kSuperAdmin, true)

enum class Operation {
#define DP_OPERATION_ENUM(id, name, scope, role, mutating) id,
  DP_OPERATIONS(DP_OPERATION_ENUM)
#undef DP_OPERATION_ENUM
};

struct OperationAccess {
  Operation operation;
  std::string_view name;
  Scope min_scope;
  RoleFloor min_role;
  bool mutating;
};

// The row of `operation`; never fails (the table has one row per enumerator).
const OperationAccess& AccessOf(Operation operation);
// Every row, in the table's order.
std::span<const OperationAccess> AllOperations();

}  // namespace dp
