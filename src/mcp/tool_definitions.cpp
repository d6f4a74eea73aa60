// The 41-tool MCP catalog (spec §6.1 order, §6.2 text). Descriptions and input schemas are
// copied verbatim from the spec's JSON blocks; tests/unit/mcp_schema/tool_definitions_test.cpp
// re-extracts them from the spec file and fails on any drift.
#include "datapipelines/mcp/tool_definition.hpp"

#include <array>

namespace dp {
namespace {

// Scope rows: each §6.2 "Scope:" line (auth §7.6 wins on conflict). Min role follows the
// scope (read → viewer, execute → operator, author → author) except datasources_test, the
// one ws_admin tool (§4.1). Mutating: §14's known writers plus every section that declares
// itself mutating; datasources_test writes the datasource's health down (§4.1).
constexpr std::string_view kPipelinesListDescription =
    R"desc(List the pipelines of the key's pinned workspace, filtered by owner, datasource, or text search. Returns metadata (id, name, display_name, description, version, status, updated_at) — version is the WORKING version and status says DRAFT or RELEASED, so an unreleased pipeline is visible as such. Not the full body. Use pipelines_get for the body; pipelines in other workspaces are absent from this listing and resolve as not-found by id. Pipeline names are FOLDER PATHS (finance/payments/daily_settlement): pass prefix to BROWSE one level of that tree — prefix:"" lists the roots, prefix:"finance" lists what is directly under finance — and q to SEARCH across full paths. Start with prefix:"" to see which roots this workspace already uses before creating a pipeline under a new one.)desc";
constexpr std::string_view kPipelinesListSchema = R"json({
  "type": "object",
  "properties": {
    "owner": {
      "type": "string",
      "description": "Filter by owner user ID."
    },
    "datasource": {
      "type": "string",
      "description": "Filter by datasource name."
    },
    "q": {
      "type": "string",
      "description": "Full-text search on name and description. Searches across full paths; use prefix to browse instead."
    },
    "prefix": {
      "type": "string",
      "description": "Browse ONE level of the folder tree instead of listing flat: returns that prefix's direct sub-folders (with counts) and its direct children. An empty string is the root. Use this to discover which roots and folders exist; use q to search across full paths."
    },
    "limit": {
      "type": "integer",
      "default": 50,
      "maximum": 200
    }
  }
})json";

constexpr std::string_view kPipelinesGetDescription =
    R"desc(Get the full definition of a pipeline (the working version by default — the draft when unreleased edits exist, else the latest released version — or a specific version). Use this to read the pipeline body before executing or modifying it. The result carries the version, its status and body_hash — echo body_hash back as expected_hash on pipelines_update; a draft pointer is present when unreleased edits exist. When a node pins a template version that a newer released version outdates, an upgrade_available array names the node, the template and both versions — an offer to re-pin via pipelines_update, never an automatic change.)desc";
constexpr std::string_view kPipelinesGetSchema = R"json({
  "type": "object",
  "required": [
    "id"
  ],
  "properties": {
    "id": {
      "type": "string",
      "format": "uuid",
      "description": "Pipeline ID."
    },
    "version": {
      "type": "integer",
      "description": "Specific version. Defaults to the working version: the draft when one exists, else the latest released."
    }
  }
})json";

constexpr std::string_view kPipelinesExecuteDescription =
    R"desc(Execute a pipeline with the given input parameters. Returns execution events (node start/complete/fail) and the final result data. The result's schema describes column types; BIGINTEGER and BIGDECIMAL columns serialize as JSON strings — preserve them as strings when displaying or persisting to avoid precision loss. When the execution FAILS, the error result carries the full failure record (node context, rendered SQL, exception chain with the root cause last in caused_by) — the same object executions_get returns; quote its correlation_id when escalating. The server checks the loop: a DRAFT whose pinned draft template was updated after this key's last templates_render of it is refused pipeline.execution.template_unrendered — render, then run.)desc";
constexpr std::string_view kPipelinesExecuteSchema = R"json({
  "type": "object",
  "required": [
    "id",
    "parameters"
  ],
  "properties": {
    "id": {
      "type": "string",
      "format": "uuid"
    },
    "version": {
      "type": "integer",
      "description": "Specific version to run. Defaults to the WORKING version: the draft when one exists, else the latest released. Never clamped — an unknown version is refused, not rounded to the latest."
    },
    "parameters": {
      "type": "object",
      "description": "Object whose keys match the pipeline's declared parameters. Values must match the declared types (BIGINTEGER and BIGDECIMAL as strings, others as JSON native types).",
      "additionalProperties": true
    }
  }
})json";

constexpr std::string_view kPipelinesExecuteNodeDescription =
    R"desc(Runs ONE pipeline node's rendered SQL against its own datasource and returns up to 50 decoded rows — a debug query for testing a node in isolation, NOT a pipeline execution. DML and DDL nodes execute FOR REAL against the datasource, leaving no execution history or trace. No ancestors run and no tempdb exists: a node whose source is tempdb is refused. Parameters bind through the pipeline's declarations; unsupplied required parameters fall back to sample values and the response names them in sampled_parameters. Absent version runs the DRAFT if one exists, else the current released version; the response states which version and status ran. A draft whose pinned draft template was updated after this key's last templates_render of it is refused pipeline.execution.template_unrendered — render, then run.)desc";
constexpr std::string_view kPipelinesExecuteNodeSchema = R"json({
  "type": "object",
  "required": [
    "pipeline_id",
    "node_id"
  ],
  "properties": {
    "pipeline_id": {
      "type": "string",
      "format": "uuid"
    },
    "node_id": {
      "type": "string",
      "description": "Node id within the pipeline body."
    },
    "version": {
      "type": "integer",
      "minimum": 1,
      "description": "Pipeline version to read. Omitted: the DRAFT if one exists, else the current released version."
    },
    "parameters": {
      "type": "object",
      "description": "Values for the pipeline's declared parameters, keyed by name. Types follow the declarations (BIGINTEGER and BIGDECIMAL as strings).",
      "additionalProperties": true
    }
  }
})json";

constexpr std::string_view kPipelinesCreateDescription =
    R"desc(Create a new pipeline. The body must satisfy the Pipeline Contract: nodes must form a DAG; at most one DQL node may resolve to output.target='caller' (a node that omits its output block resolves to 'caller' by default); zero caller nodes is legal for pure write-back pipelines; all datasource references must exist in this environment; all template references must exist and dry-render against the declared parameters. A node may also be type='CALCULATOR': it evaluates one catalog function and writes a typed value into the execution Context under context_key, which downstream nodes bind as :context_key — call calculators_list first for the kinds and their input names, and remember that a node referencing another node's context_key must depend_on it. A NEW top-level folder is refused until you confirm it: reuse an existing root, or ask the person first and then pass confirm_new_root: true. The server checks what you learned: a body whose template names a table this key never datasources_get_columns'd is refused pipeline.validation.table_not_learned with the clearing calls listed, and a raw-date door (two DATE parameters, no period parameter, no window calculator) is refused pipeline.validation.door_unacknowledged until you pass door_acknowledged: true. Returns the created pipeline with server-assigned id and version 1, which lands as a DRAFT: run it straight away, then STOP — a human releases it from the UI, and no tool releases anything.)desc";
constexpr std::string_view kPipelinesCreateSchema = R"json({
  "type": "object",
  "required": [
    "name",
    "display_name",
    "nodes"
  ],
  "properties": {
    "name": {
      "type": "string",
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,63}(/[a-z0-9][a-z0-9_.-]{0,63}){1,9}$",
      "description": "Machine name, and a FOLDER PATH: 2-10 lower-case '/'-separated segments (finance/payments/daily_settlement). A FOLDER IS REQUIRED — a bare 'daily_settlement' is refused with pipeline.validation.name_invalid and details.reason='folder_required'; put experiments under test/. The root segment says who owns it — list the existing roots with pipelines_list {prefix: ''} and reuse one; ASK before minting a new root. Keep a pipeline under the same prefix as the templates it uses. There is no rename: the name is the pipeline's identity, so choose the folder now."
    },
    "display_name": {
      "type": "string"
    },
    "description": {
      "type": "string"
    },
    "parameters": {
      "type": "object",
      "description": "Declared pipeline parameters (name -> {type, required, default, description}). This is the ONLY parameter declaration point: the full parameter map, defaults applied, is the render context for every template the pipeline references."
    },
    "settings": {
      "type": "object",
      "description": "Pipeline-level execution settings (e.g., tempdb engine)."
    },
    "nodes": {
      "type": "array",
      "description": "Pipeline nodes. Each node has type (DQL/DML/DDL/PIPELINE), source, template ref, depends_on array, and — for DQL only — an optional output block. Omitting output on a DQL node means output.target='caller'; at most one node per pipeline may resolve to 'caller'. A node whose data downstream nodes query must declare output.target='tempdb' with a table name explicitly. A PIPELINE node instead carries a pipeline ref {name, version} pinning an existing pipeline version to execute as a child execution, an optional parameters map (typed literals, or '${parent_param}' to pass a parent parameter through), and an optional output block allowed only when the pinned child has a caller node; it declares neither source nor template."
    },
    "checks": {
      "type": "array",
      "description": "Release checks (pipeline-contract §3.3): at most 20 objects, each {id, name, datasource, sql, expected} — id [a-z0-9_]{1,63} unique in the body, name 1-200 chars, sql ONE read-only statement. expected.kind is value (single numeric cell compared with absolute tolerance, default 0), range (the cell within min..max inclusive), or rows (the statement's row count equals rows). Every :name bind must name a DECLARED pipeline parameter (the calculator context is not available to a check); ${} interpolation is refused (a check has no rendering); tempdb is not a check datasource. You supply the query and the expectation, never an observed value — run them with pipelines_run_checks, and only the server's run produces observed."
    },
    "confirm_new_root": {
      "type": "boolean",
      "description": "Set true ONLY after a person has agreed to a new top-level folder. A name whose root segment has no pipelines or templates under it yet is refused with details.existing_roots listing the roots that do exist — reuse one of those, or ask the person first and then pass this. 'test/' never needs it."
    },
    "door_acknowledged": {
      "type": "boolean",
      "description": "Set true ONLY when the question truly fixes two dates. A pipeline whose parameters are two raw DATE inputs with no period parameter (year, quarter, month, *_year) and no window CALCULATOR node is refused pipeline.validation.door_unacknowledged — the door is a decision: prefer the period vocabulary of rule 13, and never pass this to silence the refusal."
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kPipelinesUpdateDescription =
    R"desc(Update an existing pipeline by writing its DRAFT — the first update after a release creates the draft (copy-on-write); later updates overwrite that same draft in place. Takes the same input as pipelines_create plus id and expected_hash: the body_hash of the version this edit is based on (pipelines_get, or the previous pipelines_create/pipelines_update result). The same save-time validation applies, including the entry-point checks: a body whose template names a table this key never datasources_get_columns'd is refused pipeline.validation.table_not_learned, and a raw-date door is refused pipeline.validation.door_unacknowledged until door_acknowledged: true. The optional checks[] are the release checks the SERVER runs — run them with pipelines_run_checks; only the server's own run produces observed. The result carries status='DRAFT' and a new body_hash to carry into the next write — your work is NOT released; a human releases it from the UI. On pipeline.version.conflict someone modified it after you loaded it: re-read with pipelines_get, rebase, retry; never retry blindly.)desc";
constexpr std::string_view kPipelinesUpdateSchema = R"json({
  "type": "object",
  "required": [
    "id",
    "expected_hash",
    "name",
    "display_name",
    "nodes"
  ],
  "properties": {
    "id": {
      "type": "string",
      "format": "uuid",
      "description": "Pipeline ID."
    },
    "expected_hash": {
      "type": "string",
      "description": "The body_hash of the version this edit is based on — pipelines_get, or the previous pipelines_create/pipelines_update result. A mismatch is a 409 pipeline.version.conflict; re-read and rebase, never retry blindly."
    },
    "name": {
      "type": "string",
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,63}(/[a-z0-9][a-z0-9_.-]{0,63}){1,9}$",
      "description": "Machine name, and a FOLDER PATH: 2-10 lower-case '/'-separated segments (finance/payments/daily_settlement). A FOLDER IS REQUIRED — a bare 'daily_settlement' is refused with pipeline.validation.name_invalid and details.reason='folder_required'; put experiments under test/. The root segment says who owns it — list the existing roots with pipelines_list {prefix: ''} and reuse one; ASK before minting a new root. Keep a pipeline under the same prefix as the templates it uses. There is no rename: the name is the pipeline's identity, so choose the folder now."
    },
    "display_name": {
      "type": "string"
    },
    "description": {
      "type": "string"
    },
    "parameters": {
      "type": "object",
      "description": "Declared pipeline parameters (name -> {type, required, default, description}). This is the ONLY parameter declaration point: the full parameter map, defaults applied, is the render context for every template the pipeline references."
    },
    "settings": {
      "type": "object",
      "description": "Pipeline-level execution settings (e.g., tempdb engine)."
    },
    "nodes": {
      "type": "array",
      "description": "Pipeline nodes. Each node has type (DQL/DML/DDL/PIPELINE), source, template ref, depends_on array, and — for DQL only — an optional output block. Omitting output on a DQL node means output.target='caller'; at most one node per pipeline may resolve to 'caller'. A node whose data downstream nodes query must declare output.target='tempdb' with a table name explicitly. A PIPELINE node instead carries a pipeline ref {name, version} pinning an existing pipeline version to execute as a child execution, an optional parameters map (typed literals, or '${parent_param}' to pass a parent parameter through), and an optional output block allowed only when the pinned child has a caller node; it declares neither source nor template."
    },
    "checks": {
      "type": "array",
      "description": "Release checks (pipeline-contract §3.3): at most 20 objects, each {id, name, datasource, sql, expected} — id [a-z0-9_]{1,63} unique in the body, name 1-200 chars, sql ONE read-only statement. expected.kind is value (single numeric cell compared with absolute tolerance, default 0), range (the cell within min..max inclusive), or rows (the statement's row count equals rows). Every :name bind must name a DECLARED pipeline parameter (the calculator context is not available to a check); ${} interpolation is refused (a check has no rendering); tempdb is not a check datasource. You supply the query and the expectation, never an observed value — run them with pipelines_run_checks, and only the server's run produces observed."
    },
    "confirm_new_root": {
      "type": "boolean",
      "description": "Set true ONLY after a person has agreed to a new top-level folder. A name whose root segment has no pipelines or templates under it yet is refused with details.existing_roots listing the roots that do exist — reuse one of those, or ask the person first and then pass this. 'test/' never needs it."
    },
    "door_acknowledged": {
      "type": "boolean",
      "description": "Set true ONLY when the question truly fixes two dates. A pipeline whose parameters are two raw DATE inputs with no period parameter (year, quarter, month, *_year) and no window CALCULATOR node is refused pipeline.validation.door_unacknowledged — the door is a decision: prefer the period vocabulary of rule 13, and never pass this to silence the refusal."
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kTemplatesListDescription =
    R"desc(List the templates of the key's pinned workspace. Templates are reusable generators authored in Freemarker, referenced by id+version; each has a fixed type — 'sql' renders SQL for pipeline nodes (and carries a dialect), 'html' renders escaped output and declares none. Template ids are unique per workspace — another workspace's template resolves as not-found.)desc";
constexpr std::string_view kTemplatesListSchema = R"json({
  "type": "object",
  "properties": {
    "dialect": {
      "type": "string",
      "enum": [
        "POSTGRES",
        "ORACLE",
        "MSSQL",
        "MYSQL",
        "H2",
        "DUCKDB",
        "SQLITE",
        "LAKE"
      ]
    },
    "type": {
      "type": "string",
      "enum": [
        "sql",
        "html"
      ],
      "description": "Filter by template kind: 'sql' (pipeline-referenced SQL) or 'html' (rendered output)."
    },
    "q": {
      "type": "string"
    },
    "prefix": {
      "type": "string",
      "description": "Browse ONE level of the folder tree instead of listing flat: returns that prefix's direct sub-folders (with counts) and its direct children. An empty string is the root. Use this to discover which roots and folders exist; use q to search across full paths."
    },
    "is_library": {
      "type": "boolean",
      "description": "Filter to library templates (macro collections) or executable templates."
    },
    "limit": {
      "type": "integer",
      "default": 50,
      "maximum": 200
    }
  }
})json";

constexpr std::string_view kTemplatesGetDescription =
    R"desc(Get the body and metadata of a template version, including its imports array (the library macros it can call). Defaults to the working version — the draft when unreleased edits exist, else the latest released.)desc";
constexpr std::string_view kTemplatesGetSchema = R"json({
  "type": "object",
  "required": [
    "id"
  ],
  "properties": {
    "id": {
      "type": "string"
    },
    "version": {
      "type": "integer",
      "description": "Specific version. Defaults to the working version: the draft when one exists, else the latest released."
    }
  }
})json";

constexpr std::string_view kTemplatesUsedByDescription =
    R"desc(Which pipelines pin a given template version in their working version (the draft when unreleased edits exist, else the latest released). Returns one reference per node — pipeline name and id, node id, and the pipeline version carrying the pin — plus the distinct pipeline count. Use it before editing or retiring a template version to see who you would affect. It does not answer 'is it safe to delete' (that scan includes historical pipeline versions and lives in the delete refusal), and it never changes anything.)desc";
constexpr std::string_view kTemplatesUsedBySchema = R"json({
  "type": "object",
  "required": [
    "id",
    "version"
  ],
  "properties": {
    "id": {
      "type": "string",
      "description": "Template id."
    },
    "version": {
      "type": "integer",
      "description": "The pinned version to look for."
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kTemplatesCreateDescription =
    R"desc(Create a new template. Templates use Freemarker syntax. A template declares NO parameters of its own: the variables its body may reference are exactly the parameters declared by the pipeline that calls it, with defaults applied. Describe the variables you expect in 'description' — that free text is how humans and agents discover them. Macros from library templates are made available by listing them in 'imports'; the body must NOT contain import or include directives, they are synthesized from the imports array. The 'type' is chosen here and never changes afterwards: 'sql' (default) requires a dialect and is what pipeline nodes reference; 'html' takes no dialect and renders through an auto-escaping engine. A NEW top-level folder is refused until you confirm it: reuse an existing root, or ask the person first and then pass confirm_new_root: true. Version 1 lands as a DRAFT: a pipeline draft may pin it and render against it while you iterate, and a human releases it from the UI — a RELEASED pipeline may only pin RELEASED template versions, so the template is released first.)desc";
constexpr std::string_view kTemplatesCreateSchema = R"json({
  "type": "object",
  "required": [
    "display_name",
    "description",
    "body"
  ],
  "properties": {
    "id": {
      "type": "string",
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,63}(/[a-z0-9][a-z0-9_.-]{0,63}){1,9}$",
      "description": "Template id, and a FOLDER PATH: 2-10 lower-case '/'-separated segments (acme/finance/daily_orders.sql). A FOLDER IS REQUIRED — a bare 'daily_orders.sql' is refused with template.validation.id_invalid and details.reason='folder_required'; put experiments under test/, and shared macros under <owner>/lib/. Keep a template under the same prefix as the pipelines that read it. Optional; auto-generated if omitted. There is no rename, so choose the folder now."
    },
    "engine": {
      "type": "string",
      "enum": [
        "freemarker"
      ],
      "default": "freemarker",
      "description": "Template engine. v1 supports freemarker only."
    },
    "type": {
      "type": "string",
      "enum": [
        "sql",
        "html"
      ],
      "default": "sql",
      "description": "Template kind, fixed at creation and identical on every version: 'sql' renders SQL for pipeline nodes (requires 'dialect'); 'html' renders HTML through an auto-escaping engine (must have NO 'dialect')."
    },
    "dialect": {
      "type": "string",
      "enum": [
        "POSTGRES",
        "ORACLE",
        "MSSQL",
        "MYSQL",
        "H2",
        "DUCKDB",
        "SQLITE",
        "LAKE"
      ],
      "description": "SQL execution target. Required when type is 'sql' (the default); forbidden when type is 'html' — an html template declares no dialect."
    },
    "display_name": {
      "type": "string"
    },
    "description": {
      "type": "string",
      "description": "Free text. State the variables the body expects and their types — the template declares none."
    },
    "imports": {
      "type": "array",
      "description": "Library templates whose macros this body calls. Aliases must be unique within the template; each referenced template must exist at that exact version and be is_library=true.",
      "items": {
        "type": "object",
        "required": [
          "id",
          "version",
          "alias"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "version": {
            "type": "integer"
          },
          "alias": {
            "type": "string",
            "description": "Namespace the macros are bound to, e.g. 'dates' → <@dates.date_range .../>."
          }
        },
        "additionalProperties": false
      }
    },
    "is_library": {
      "type": "boolean",
      "default": false,
      "description": "true if this template exists to be imported by others. A library body contains only <#macro>/<#function> definitions — no output outside macro definitions. body is still required."
    },
    "body": {
      "type": "string",
      "description": "Template source. Must not contain <#import> or <#include>."
    },
    "confirm_new_root": {
      "type": "boolean",
      "description": "Set true ONLY after a person has agreed to a new top-level folder. A name whose root segment has no pipelines or templates under it yet is refused with details.existing_roots listing the roots that do exist — reuse one of those, or ask the person first and then pass this. 'test/' never needs it."
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kTemplatesUpdateDescription =
    R"desc(Update an existing template by writing its DRAFT — the first update after a release creates the draft (copy-on-write); later updates overwrite that same draft in place. Requires expected_hash: the body_hash you read (templates_get, or a previous templates_create/templates_update result) for the version you based your edit on. The result carries status='DRAFT' — your work is NOT released; a human releases it from the UI. On template.version.conflict someone modified it after you loaded it: re-read with templates_get, rebase, retry; never retry blindly. The body takes the same fields as templates_create, and the template's type is fixed at creation — an update naming a different type is refused with template.validation.type_immutable. type and dialect are optional: omitted, the working version's are inherited; a different dialect is refused. templates_purge_draft is for a template that was a mistake, not for editing one.)desc";
constexpr std::string_view kTemplatesUpdateSchema = R"json({
  "type": "object",
  "required": [
    "id",
    "expected_hash",
    "display_name",
    "description",
    "body"
  ],
  "properties": {
    "id": {
      "type": "string",
      "pattern": "^[a-z0-9][a-z0-9_.-]{0,63}(/[a-z0-9][a-z0-9_.-]{0,63}){1,9}$",
      "description": "Template to update — the FOLDER PATH id it was created under (acme/finance/daily_orders.sql). Required here: §9.6, the name never travels in a path or anywhere else. There is no rename, so the id cannot change — an unknown id is the catalogued template.not_found."
    },
    "expected_hash": {
      "type": "string",
      "description": "The body_hash of the version this edit is based on — templates_get, or a previous templates_create/templates_update result. A mismatch is a 409 template.version.conflict; re-read and rebase, never retry blindly."
    },
    "engine": {
      "type": "string",
      "enum": [
        "freemarker"
      ],
      "default": "freemarker",
      "description": "Template engine. v1 supports freemarker only."
    },
    "type": {
      "type": "string",
      "enum": [
        "sql",
        "html"
      ],
      "description": "Template kind — fixed at creation, so on an update it is OPTIONAL: omitted, the working version's is inherited; stated, it must equal it (template.validation.type_immutable otherwise)."
    },
    "dialect": {
      "type": "string",
      "enum": [
        "POSTGRES",
        "ORACLE",
        "MSSQL",
        "MYSQL",
        "H2",
        "DUCKDB",
        "SQLITE",
        "LAKE"
      ],
      "description": "Optional on update: omit it and the working version's dialect is inherited. When present it must be the dialect the template already has — a different one is refused with template.validation.dialect_invalid (a template pinned by pipeline nodes cannot change engine; create a new template instead). Never present for an html template."
    },
    "display_name": {
      "type": "string"
    },
    "description": {
      "type": "string",
      "description": "Free text. State the variables the body expects and their types — the template declares none."
    },
    "imports": {
      "type": "array",
      "description": "Library templates whose macros this body calls. Aliases must be unique within the template; each referenced template must exist at that exact version and be is_library=true.",
      "items": {
        "type": "object",
        "required": [
          "id",
          "version",
          "alias"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "version": {
            "type": "integer"
          },
          "alias": {
            "type": "string",
            "description": "Namespace the macros are bound to, e.g. 'dates' → <@dates.date_range .../>."
          }
        },
        "additionalProperties": false
      }
    },
    "is_library": {
      "type": "boolean",
      "default": false,
      "description": "true if this template exists to be imported by others. A library body contains only <#macro>/<#function> definitions — no output outside macro definitions. body is still required."
    },
    "body": {
      "type": "string",
      "description": "Template source. Must not contain <#import> or <#include>."
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kTemplatesRenderDescription =
    R"desc(Render a template against the provided context values and return the SQL it produces. Use this to preview generated SQL before creating a pipeline that references the template. The context is a free-form map: supply the same keys the calling pipeline would declare as parameters. Referencing a key absent from the context fails the render — that is the same failure a pipeline save would report.)desc";
constexpr std::string_view kTemplatesRenderSchema = R"json({
  "type": "object",
  "required": [
    "id",
    "context"
  ],
  "properties": {
    "id": {
      "type": "string"
    },
    "version": {
      "type": "integer",
      "description": "Defaults to latest."
    },
    "context": {
      "type": "object",
      "description": "Render context: the parameter map a calling pipeline would provide, defaults already applied. Values follow the wire conventions of the Type System (BIGINTEGER/BIGDECIMAL as strings, TIMESTAMP with Z or offset).",
      "additionalProperties": true
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kTemplatesPurgeDraftDescription =
    R"desc(Hard-delete a template that has NEVER been released: the only version is a DRAFT, created by this key's user, and pinned by nothing — no pipeline version anywhere, draft or released, may reference any version of it (the refusal names the pinning pipelines; templates_used_by answers the working-version scan if you need to inspect them). The sole-draft purge takes the entity row with it. A template holding any RELEASED or discarded version, another user's draft, or a pinned draft is refused — humans release and humans discard releases; an agent's own draft that should not exist is what this verb removes. Mutating.)desc";
constexpr std::string_view kTemplatesPurgeDraftSchema = R"json({
  "type": "object",
  "required": [
    "id"
  ],
  "additionalProperties": false,
  "properties": {
    "id": {
      "type": "string",
      "description": "Template id."
    }
  }
})json";

constexpr std::string_view kDatasourcesListDescription =
    R"desc(List the datasources GRANTED to the key's pinned workspace. Visibility is the grant: a datasource registered elsewhere and not granted to this workspace is ABSENT, not hidden, and there is no such thing as a global datasource. This is the learn-first read: every entry carries name, dialect, description, the readonly flag, the workspace that REGISTERED it (omitted for an instance-level one), granted:true, connection metadata — never passwords — AND `facts`, the datasource-wide learned facts earlier sessions recorded (its time window, whether it is a sample), each with `trust` and evidence — read them before you assume coverage — AND `definitions`, this workspace's rules (definition, exclusion, preference) earlier pipelines chose on this datasource: a definition is a rule an earlier pipeline chose; read it before you choose yours, and reuse or supersede it, never re-choose. `datasources_get` is the same payload for ONE datasource — the refresh to call after recording facts with semantics_record.)desc";
constexpr std::string_view kDatasourcesListSchema = R"json({
  "type": "object",
  "properties": {
    "dialect": {
      "type": "string"
    }
  }
})json";

constexpr std::string_view kDatasourcesGetDescription =
    R"desc(Get metadata for a single datasource GRANTED to the key's pinned workspace: name, dialect, JDBC URL, the workspace that REGISTERED it (omitted for an instance-level one), granted:true, readonly flag, pool settings, `facts` — the datasource-wide learned facts agents recorded (its time window, whether it is a sample) — read them before you assume coverage — and `definitions`, this workspace's rules (definition, exclusion, preference) earlier pipelines chose on this datasource: a definition is a rule an earlier pipeline chose; read it before you choose yours. Credentials are never returned. A datasource that is not granted to this workspace resolves as not-found — the same answer a name that exists nowhere gets, so nothing about it can be probed.)desc";
constexpr std::string_view kDatasourcesGetSchema = R"json({
  "type": "object",
  "required": [
    "name"
  ],
  "properties": {
    "name": {
      "type": "string"
    }
  }
})json";

constexpr std::string_view kDatasourcesTestDescription =
    R"desc(Test connectivity to a datasource. Returns success/failure and server version on success. Useful for diagnosing pipeline connection errors.)desc";
constexpr std::string_view kDatasourcesTestSchema = R"json({
  "type": "object",
  "required": [
    "name"
  ],
  "properties": {
    "name": {
      "type": "string"
    }
  }
})json";

constexpr std::string_view kDatasourcesGetSchemasDescription =
    R"desc(List the namespaces of a registered datasource by reading its live JDBC metadata, excluding the engine's own system schemas. The entry point of schema discovery: call this first, then get_tables(namespace), then get_columns for only the tables the SQL needs. Each entry carries an ordered `namespace` path and a `label`; on a two-level engine (catalog.schema, project.dataset) two entries can share a label and differ only by their outer segment, so pass the whole `namespace` back rather than the label. `schemas` repeats the labels for older clients. An empty list on a datasource with no namespaces is a valid answer. Read-only, for pipeline authoring.)desc";
constexpr std::string_view kDatasourcesGetSchemasSchema = R"json({
  "type": "object",
  "required": [
    "name"
  ],
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name."
    }
  }
})json";

constexpr std::string_view kDatasourcesGetTablesDescription =
    R"desc(List the tables and views of a registered datasource by reading its live JDBC metadata. The listing spans namespaces — pass each table's reported `namespace` array to datasources_get_columns. A table carries `facts` when agents have recorded table-level learned facts on it (grain, sampling, window, a caveat) — read them before probing; a fact marked stale or needs_review is a warning, not a truth. For a LAKE datasource each table carries `partition_column` — a name means the table is hive-partitioned on it and a filter on that column prunes files; `null` means one unpartitioned file, every read scans it, and no filter prunes. Read-only, for pipeline authoring.)desc";
constexpr std::string_view kDatasourcesGetTablesSchema = R"json({
  "type": "object",
  "required": [
    "name"
  ],
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name."
    },
    "namespace": {
      "type": "array",
      "items": {
        "type": "string"
      },
      "description": "Optional namespace filter, outermost first, as returned by datasources_get_schemas. An unknown namespace matches nothing."
    },
    "schema": {
      "type": "string",
      "description": "Optional single-level filter; accepts the dotted 'catalog.schema' form. Superseded by namespace."
    }
  }
})json";

constexpr std::string_view kDatasourcesGetColumnsDescription =
    R"desc(List one table's columns with canonical types, read from the datasource's live JDBC metadata. Pass the table name exactly as datasources_get_tables returned it, and its `namespace` array with it. Without a namespace only the connection's current one is read; if the datasource reports none, an explicit namespace is required (list them with datasources_get_schemas). On a two-level engine an unqualified read can merge same-named tables from different catalogs, which is why the namespace is worth passing. Each column carries `facts` when agents have recorded learned facts on it — a unit, a time zone, what a coded value means, a join, a caveat — with trust and evidence: read them before probing, and treat stale or needs_review as a warning to re-verify, then record the superseding fact. An unknown table is refused as datasource.table_not_found, naming the nearest listed table when one is close; a LAKE datasource answers datasource.lake_table_not_found for a table its registry does not carry. Read-only, for pipeline authoring.)desc";
constexpr std::string_view kDatasourcesGetColumnsSchema = R"json({
  "type": "object",
  "required": [
    "name",
    "table"
  ],
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name."
    },
    "table": {
      "type": "string",
      "description": "Table name as returned by datasources_get_tables."
    },
    "namespace": {
      "type": "array",
      "items": {
        "type": "string"
      },
      "description": "The table's namespace, outermost first, as datasources_get_tables reported it. An unknown namespace matches nothing."
    },
    "schema": {
      "type": "string",
      "description": "Optional single-level filter; accepts the dotted 'catalog.schema' form. Superseded by namespace."
    }
  }
})json";

constexpr std::string_view kDatasourcesGetTableStatsDescription =
    R"desc(One table's catalog statistics: a row estimate, the index list (a lake table's partition column reports as the pseudo-index it is), and per-column distinct / null-fraction / min-max bounds — the min/max are the catalog's estimates, not a scan — probe for the exact bound. Every number comes from the engine's own catalog (pg_class, information_schema, parquet footers) — never a scan of the table, so this is safe at any table size. When a dialect holds no catalog stats the stat fields are null and stats_source is "none" — probe an explicit count with sql_probe if you need one. An unknown table is refused as datasource.table_not_found, naming the nearest listed table when one is close; a LAKE datasource answers datasource.lake_table_not_found for a table its registry does not carry. Read this before writing a predicate — an unindexed filter on a large table is the timeout you will hit.)desc";
constexpr std::string_view kDatasourcesGetTableStatsSchema = R"json({
  "type": "object",
  "required": [
    "name",
    "table"
  ],
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name."
    },
    "table": {
      "type": "string",
      "description": "Table name exactly as datasources_get_tables returned it."
    },
    "namespace": {
      "type": "array",
      "items": {
        "type": "string"
      },
      "description": "The table's namespace, outermost first, as datasources_get_tables reported it. An unknown namespace matches nothing."
    }
  }
})json";

constexpr std::string_view kDatasourcesPreviewRowsDescription =
    R"desc(Preview up to `limit` rows of one table's data, read live from the datasource. The counterpart to datasources_get_columns: this shows the DATA, that shows the shape. Without order_by the top-N is engine-arbitrary; pass order_by to see a chosen end of the data, e.g. direction DESC for the newest or largest rows. Read-only (SELECT); readonly datasources are valid targets. Values arrive wire-encoded: BIGINTEGER and BIGDECIMAL as strings, temporal as fixed-width ISO forms. An unknown table is refused as datasource.table_not_found naming the nearest listed table; a table the datasource's credentials cannot read is datasource.table_forbidden.)desc";
constexpr std::string_view kDatasourcesPreviewRowsSchema = R"json({
  "type": "object",
  "required": [
    "name",
    "table"
  ],
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name."
    },
    "table": {
      "type": "string",
      "description": "Table name exactly as datasources_get_tables returned it."
    },
    "schema": {
      "type": "string",
      "description": "Optional schema qualifier. Omitted means the connection's current schema."
    },
    "order_by": {
      "type": "array",
      "description": "Sort terms applied in order. Each is an object with a column and a direction, never a free SQL string.",
      "items": {
        "type": "object",
        "required": [
          "column"
        ],
        "properties": {
          "column": {
            "type": "string",
            "description": "Column name exactly as datasources_get_columns returned it."
          },
          "direction": {
            "type": "string",
            "enum": [
              "ASC",
              "DESC"
            ],
            "default": "ASC"
          }
        }
      }
    },
    "limit": {
      "type": "integer",
      "default": 50,
      "minimum": 1,
      "maximum": 50
    }
  }
})json";

constexpr std::string_view kSqlProbeDescription =
    R"desc(Run ONE read-only SELECT or WITH statement against a datasource and return up to `limit` wire-encoded rows, the canonical column schema, wall_ms of query time, and the EXPLAIN plan captured BEFORE the query ran — a bounded debug probe, not an export. The statement is classified before any connection opens: anything but a single SELECT/WITH, or a denylisted verb (INSERT, DROP, ATTACH, EXPLAIN, INTO, ...) anywhere in it, is refused without touching the datasource. Parameters bind as named :name placeholders through the same binder pipeline SQL uses; every referenced name must be supplied in `parameters` with its canonical type. `tempdb` is a scratch check, not an execution: the statement is prepared against an EMPTY scratch tempdb — a private in-memory SQLite database, the engine executions stage into (no staged tables, no data). Read `validation_status`: `executed` (`parsed: true`, rows) means a self-contained statement ran; `incomplete` (`parsed: null`, `missing_table`) means SQLite stopped at the first staged table it could not find and NOTHING after that point — syntax or names — was checked; an error is a real SQLite error (a syntax slip, a misspelled column or function) found in milliseconds instead of a full run. To finish an incomplete check, restate the suspect construct over typed, aliased `VALUES` inputs so it executes here, or run the node with its real staged inputs. On a timeout the error details carry wall_ms and the plan, so the plan that explains the timeout survives it. A statement the database refuses for lack of privilege on an existing table is datasource.table_forbidden. The sql text never reaches the audit log — only its SHA-256 and length are recorded.)desc";
constexpr std::string_view kSqlProbeSchema = R"json({
  "type": "object",
  "required": [
    "name",
    "sql"
  ],
  "additionalProperties": false,
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name, or the reserved name tempdb to prepare a staging statement against an empty scratch tempdb (SQLite). validation_status executed means it ran; incomplete with missing_table means SQLite stopped at a staged table that exists only inside a full execution, and the rest of the statement is unverified."
    },
    "sql": {
      "type": "string",
      "description": "ONE SELECT or WITH statement. A second statement or a denylisted verb is refused before any connection opens."
    },
    "parameters": {
      "type": "object",
      "description": "Bind values for the statement's :name placeholders, keyed by name. type is the canonical logical type; value is its wire string (BIGINTEGER/BIGDECIMAL as decimal text, temporal in ISO forms, BINARY as padded base64). A null value binds SQL NULL.",
      "additionalProperties": {
        "type": "object",
        "required": [
          "type"
        ],
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "BOOLEAN",
              "INTEGER",
              "BIGINTEGER",
              "DECIMAL",
              "BIGDECIMAL",
              "STRING",
              "BINARY",
              "DATE",
              "TIME",
              "TIMESTAMP"
            ]
          },
          "value": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      }
    },
    "limit": {
      "type": "integer",
      "default": 50,
      "minimum": 1,
      "maximum": 500
    },
    "timeout_seconds": {
      "type": "integer",
      "default": 10,
      "minimum": 1,
      "maximum": 30
    }
  }
})json";

constexpr std::string_view kExecutionsListDescription =
    R"desc(List recent pipeline executions, optionally filtered by pipeline or status.)desc";
constexpr std::string_view kExecutionsListSchema = R"json({
  "type": "object",
  "properties": {
    "pipeline_id": {
      "type": "string",
      "format": "uuid"
    },
    "status": {
      "type": "string",
      "enum": [
        "RUNNING",
        "SUCCESS",
        "FAILED",
        "ABORTED"
      ]
    },
    "limit": {
      "type": "integer",
      "default": 50,
      "maximum": 200
    }
  }
})json";

constexpr std::string_view kExecutionsGetDescription =
    R"desc(Get metadata for a specific execution: status, timing, node_stats, parameters used. On a FAILED execution, error carries the full failure record: code, message, correlation_id, node context (datasource, dialect, pinned template), the rendered SQL (:name form, no bound values) and the exception chain with stack frames — read error.code first, then error.exception.caused_by (root cause LAST), then error.sql; quote error.correlation_id when escalating. To get the result rows, use executions_get_result.)desc";
constexpr std::string_view kExecutionsGetSchema = R"json({
  "type": "object",
  "required": [
    "execution_id"
  ],
  "properties": {
    "execution_id": {
      "type": "string",
      "format": "uuid"
    }
  }
})json";

constexpr std::string_view kExecutionsGetResultDescription =
    R"desc(Fetch result rows for a completed execution, paginated via offset+limit. Returns schema + rows + pagination metadata. Works for ANY completed execution that produced a caller result, of any size, until its TTL expires (default 300s, set at execution time). Order is stable across pages. Reading pages does NOT extend the TTL — after expiry the result is gone and the pipeline must be re-run.)desc";
constexpr std::string_view kExecutionsGetResultSchema = R"json({
  "type": "object",
  "required": [
    "execution_id"
  ],
  "properties": {
    "execution_id": {
      "type": "string",
      "format": "uuid"
    },
    "offset": {
      "type": "integer",
      "default": 0,
      "minimum": 0
    },
    "limit": {
      "type": "integer",
      "default": 1000,
      "minimum": 1,
      "maximum": 100000,
      "description": "Rows per page. Defaults to the server's result page size."
    },
    "format": {
      "type": "string",
      "enum": [
        "json",
        "arrow",
        "csv"
      ],
      "default": "json"
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kExecutionsCancelDescription =
    R"desc(Request cancellation of a RUNNING execution. This key can cancel ONLY an execution its own MCP calls started: the execution must have been triggered via MCP by this key's user, and an audit row must pair this key with the execution's correlation id — an execution started over REST, the UI, a pipeline node, a published endpoint, or another key of the same user is refused, and the refusal names which rule fired. A non-RUNNING execution is refused with its current status. Cancellation is requested, not awaited: the flag reaches the executing instance within about one poll interval (immediately when same-instance); poll executions_get for the terminal ABORTED status. Mutating.)desc";
constexpr std::string_view kExecutionsCancelSchema = R"json({
  "type": "object",
  "required": [
    "execution_id"
  ],
  "additionalProperties": false,
  "properties": {
    "execution_id": {
      "type": "string",
      "format": "uuid"
    }
  }
})json";

constexpr std::string_view kCalculatorsListDescription =
    R"desc(The catalog of calculator kinds a CALCULATOR node can evaluate: every kind with its typed inputs (name, type, required, whether it takes a JSON array, and its default when optional), its output type (or, for a multi-output kind, the named `outputs` set a node maps through `context_keys`), one worked example, and `phrases` — the everyday phrases the kind answers. Call this before authoring a CALCULATOR node — the kind names and input names are not guessable — and match the question's words against `phrases` before you pick a kind: a relative time phrase ('last quarter', 'month to date') is resolved by that lookup, never by interpreting it yourself. Also returns the Context keys every pipeline can reference without declaring anything: the deployment's org_* values and the platform keys current_date, current_timestamp and execution_id. Read-only.)desc";
constexpr std::string_view kCalculatorsListSchema = R"json({
  "type": "object",
  "properties": {},
  "additionalProperties": false
})json";

constexpr std::string_view kCalculatorsGetDescription =
    R"desc(One calculator kind's full definition: display name, description, typed inputs, output type (or the named `outputs` set of a multi-output kind), a worked example and `phrases` — the everyday phrases the kind answers, which you match the question's words against before picking a kind. Use it when you know the kind and need its exact input names and types. An unknown kind is refused with the catalogued names in the error detail. Read-only.)desc";
constexpr std::string_view kCalculatorsGetSchema = R"json({
  "type": "object",
  "required": [
    "kind"
  ],
  "properties": {
    "kind": {
      "type": "string",
      "description": "The kind name, e.g. fiscal_quarter."
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kEndpointsCreateDescription =
    R"desc(Publish a released pipeline as a GET endpoint under /api/x. The pipeline must have a RELEASED version and must be side-effect-free: every node DQL into tempdb or the caller, transitively through PIPELINE nodes. A DML/DDL node, or a DQL node writing back to a datasource, is refused with endpoint.pipeline_not_readonly naming the node — that rule is what makes serving over GET safe, since GET is retried, preloaded and crawled. path is 1-10 segments, each a literal [a-z0-9][a-z0-9_.-]{0,63} or a {variable} naming a declared parameter; remaining parameters come from the query string. A path that could match the same URL as an existing one is refused (endpoint.path_conflict) rather than resolved by precedence. Calling the endpoint needs an API key bound to it — mint and bind one over REST or in the UI (auth.md §7.7); an unbound endpoint accepts user keys with the execute scope.)desc";
constexpr std::string_view kEndpointsCreateSchema = R"json({
  "type": "object",
  "required": [
    "path",
    "pipeline"
  ],
  "additionalProperties": false,
  "properties": {
    "path": {
      "type": "string",
      "description": "e.g. /finance/revenue/{region} — no /api/x prefix, no trailing slash."
    },
    "pipeline": {
      "type": "string",
      "description": "The pipeline NAME. It must have a released version."
    },
    "timeout_seconds": {
      "type": "integer",
      "description": "Clamped by datapipelines.endpoints.timeout-min-seconds/max-seconds. On timeout the endpoint answers 202 and the execution keeps running."
    },
    "description": {
      "type": "string"
    }
  }
})json";

constexpr std::string_view kEndpointsListDescription =
    R"desc(List the published endpoints of the key's workspace: path, pipeline name, timeout, whether it is enabled, and the path variables it binds. A disabled endpoint answers 404 exactly like an unpublished one, so this listing is the only way to see that it exists.)desc";
constexpr std::string_view kEndpointsListSchema = R"json({
  "type": "object",
  "additionalProperties": false,
  "properties": {}
})json";

constexpr std::string_view kEndpointsGetDescription =
    R"desc(One published endpoint by its path (the pattern, not a request URL — '/finance/revenue/{region}').)desc";
constexpr std::string_view kEndpointsGetSchema = R"json({
  "type": "object",
  "required": [
    "path"
  ],
  "additionalProperties": false,
  "properties": {
    "path": {
      "type": "string",
      "description": "The published path PATTERN, e.g. /finance/revenue/{region}."
    }
  }
})json";

constexpr std::string_view kEndpointsDeleteDescription =
    R"desc(Unpublish an endpoint by its path. The pipeline is untouched — only the URL stops answering. Key bindings on that path are NOT removed: they describe a node of the tree, which may still carry other endpoints beneath it.)desc";
constexpr std::string_view kEndpointsDeleteSchema = R"json({
  "type": "object",
  "required": [
    "path"
  ],
  "additionalProperties": false,
  "properties": {
    "path": {
      "type": "string",
      "description": "The published path PATTERN, e.g. /finance/revenue/{region}."
    }
  }
})json";

constexpr std::string_view kLakeTablesRegisterDescription =
    R"desc(Register one table in a LAKE datasource's catalog (the dp-lake registry). Mirrors POST /api/v1/datasources/{name}/tables: namespace (array of segments or the dotted 'acme.analytics' shorthand), table, format (parquet | iceberg) and location are required; partition_column is optional. The location is s3://bucket/prefix/ (parquet: a directory or glob; iceberg: the table's CURRENT metadata file, e.g. s3://bucket/table/metadata/00042-<uuid>.metadata.json — DuckDB 1.5.5 cannot scan a pyiceberg table by its root, so register the file, and re-register it when the table commits) or a file:// path — no other scheme, and no quotes, backslashes, whitespace or control characters (it is interpolated into the engine's CREATE VIEW, so the refusal is total). Segments follow the pipeline/template segment grammar without dots. Registering an already-registered (namespace, table) is the 409 datasource.lake_table_duplicate; a non-LAKE datasource is refused. Mutating.)desc";
constexpr std::string_view kLakeTablesRegisterSchema = R"json({
  "type": "object",
  "required": [
    "name",
    "namespace",
    "table",
    "format",
    "location"
  ],
  "additionalProperties": false,
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name. A LAKE datasource visible in the key's pinned workspace."
    },
    "namespace": {
      "description": "Namespace — a segments array or the dotted shorthand. 1-9 segments, the segment grammar without dots.",
      "anyOf": [
        {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        {
          "type": "string"
        }
      ]
    },
    "table": {
      "type": "string",
      "description": "The table's name — one segment of the same grammar, e.g. events_by_day."
    },
    "format": {
      "type": "string",
      "enum": [
        "parquet",
        "iceberg"
      ]
    },
    "location": {
      "type": "string",
      "description": "s3://bucket/prefix/ (parquet dir/glob; iceberg: the current metadata file, not the table root) or file:// path. Nothing else; no injection chars."
    },
    "partition_column": {
      "type": "string",
      "description": "Optional. The hive-style partition column, e.g. event_date."
    }
  }
})json";

constexpr std::string_view kLakeTablesImportDescription =
    R"desc(Bulk-register lake tables from a manifest's `tables[]` shape. Mirrors POST /api/v1/datasources/{name}/tables/import: pass EITHER tables (an array of {name, format, location|path, partition_column?, namespace?}, with publish_prefix for relative paths and an optional shared namespace) OR manifest_url. A manifest URL is fetched server-side ONLY from the datasource's own endpoint/bucket — derived from its declared dialect.endpoint / catalog.ref, or AWS S3 when neither is set; anything else is refused with datasource.validation.lake_manifest_url_forbidden (no arbitrary URL fetch — SSRF). Import is idempotent: already-registered tables are reported in already_registered, not errors. Mutating.)desc";
constexpr std::string_view kLakeTablesImportSchema = R"json({
  "type": "object",
  "required": [
    "name"
  ],
  "additionalProperties": false,
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name. A LAKE datasource visible in the key's pinned workspace."
    },
    "tables": {
      "type": "array",
      "description": "Inline form: manifest entries {name, format, location|path, partition_column?, namespace?}.",
      "items": {
        "type": "object"
      }
    },
    "namespace": {
      "description": "Shared namespace applied to entries that carry none — an array of segments or the dotted shorthand.",
      "anyOf": [
        {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        {
          "type": "string"
        }
      ]
    },
    "publish_prefix": {
      "type": "string",
      "description": "Base URI resolving relative entry paths, e.g. s3://bucket/lake/v1."
    },
    "manifest_url": {
      "type": "string",
      "description": "URL of a manifest.json. Fetched ONLY from the datasource's own endpoint/bucket or AWS S3; else refused."
    }
  }
})json";

constexpr std::string_view kLakeTablesUnregisterDescription =
    R"desc(Unregister one table from a LAKE datasource's catalog. Mirrors DELETE /api/v1/datasources/{name}/tables/{namespace}/{table}: the objects in the bucket are untouched — the table stops being served by the datasource. Unregistering a table that is not registered is the 404 datasource.lake_table_not_found, never a silent no-op. Mutating.)desc";
constexpr std::string_view kLakeTablesUnregisterSchema = R"json({
  "type": "object",
  "required": [
    "name",
    "namespace",
    "table"
  ],
  "additionalProperties": false,
  "properties": {
    "name": {
      "type": "string",
      "description": "Datasource name. A LAKE datasource visible in the key's pinned workspace."
    },
    "namespace": {
      "description": "The table's namespace, outermost first — an array of segments or the dotted shorthand ('acme.analytics').",
      "anyOf": [
        {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        {
          "type": "string"
        }
      ]
    },
    "table": {
      "type": "string",
      "description": "The table to unregister."
    }
  }
})json";

constexpr std::string_view kSemanticsRecordDescription =
    R"desc(Record ONE fact you learned about a datasource that introspection could not tell you — a unit, a time zone, a sample rate, a grain, what a coded value means, a join that holds, a trap — so the next session reads it beside the columns instead of probing again. Never record what introspection already returns (types, keys, comments). refs name the table(s) and column(s) the fact is about, structurally; every ref is checked against the live schema and an unknown one is refused. The fact's text must agree with its refs: a catalog table the text names but refs omit is ADDED to the stored refs for you (refs_added in the result names what was added); a near-miss of a listed table is refused as semantics.ref_mismatch (the refusal names the nearest listed table). A lake table's ref takes schema as ONE dotted namespace string ({"schema": "lake.mart", "table": "events"}), never a namespace array. Pass evidence_sql (the SELECT that showed the fact): it runs once, its first rows become evidence_summary, and the fact is stored as observed — without it the fact is only asserted. scope DATASOURCE is about the data over the table's WHOLE window and is shared with every workspace the datasource is granted to — an observation tied to one window belongs in the pipeline description, not in a fact; scope WORKSPACE (definition, exclusion, preference) is this organisation's meaning and stays here — and a WORKSPACE rule may carry NO refs: a rule that spans datasources ('busiest day = A + B combined') is recorded once, against the datasource the question is mostly about, and names no table; a DATASOURCE fact always names at least one (a unit without a column is meaningless — semantics.fact_invalid). To correct a stale or wrong fact, record the replacement with supersedes: the old one is retired as superseded. An identical live fact is refused as semantics.duplicate. Mutating.)desc";
constexpr std::string_view kSemanticsRecordSchema = R"json({
  "type": "object",
  "required": [
    "scope",
    "datasource",
    "kind",
    "fact"
  ],
  "additionalProperties": false,
  "properties": {
    "scope": {
      "type": "string",
      "enum": [
        "DATASOURCE",
        "WORKSPACE"
      ],
      "description": "DATASOURCE: a fact about the data, visible wherever the datasource is granted. WORKSPACE: this organisation's meaning, visible here only."
    },
    "datasource": {
      "type": "string",
      "description": "Datasource name (must be granted to this workspace)."
    },
    "kind": {
      "type": "string",
      "enum": [
        "unit",
        "time_zone",
        "sampling",
        "grain",
        "window",
        "enum_meaning",
        "join",
        "caveat",
        "format",
        "definition",
        "exclusion",
        "preference"
      ],
      "description": "What the fact is about. unit, time_zone, sampling, grain, window, enum_meaning, join, caveat, format are DATASOURCE kinds; definition, exclusion, preference are WORKSPACE kinds."
    },
    "fact": {
      "type": "string",
      "minLength": 8,
      "maxLength": 1000,
      "description": "The fact, in one or two sentences, specific enough to act on: 'value is already in the unit named by unit_col', 'pickup_ts is naive local time (America/New_York)'."
    },
    "refs": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "table"
        ],
        "additionalProperties": false,
        "properties": {
          "schema": {
            "type": "string",
            "description": "Namespace as datasources_get_tables reported it (a label, or the dotted catalog.schema form). Omit for the connection's current schema."
          },
          "table": {
            "type": "string",
            "description": "Table name exactly as datasources_get_tables returned it."
          },
          "column": {
            "type": "string",
            "description": "Column name exactly as datasources_get_columns returned it. Omit for a table-grain fact (grain, window, sampling, a table-level caveat)."
          }
        }
      },
      "description": "The object(s) the fact is about. One ref for a column fact, two for a join, a column-less ref for a table-grain fact. Required (at least one) for a DATASOURCE kind; a WORKSPACE rule that spans datasources omits it."
    },
    "evidence_sql": {
      "type": "string",
      "description": "ONE read-only SELECT/WITH that shows the fact (no :parameters). Runs once at record time under the sql_probe rules; a statement that fails refuses the record."
    },
    "evidence_summary": {
      "type": "string",
      "maxLength": 300,
      "description": "What the evidence showed, in your words. Defaults to the probe's first rows."
    },
    "source_pipeline_id": {
      "type": "string",
      "format": "uuid",
      "description": "The pipeline you learned this while building, if any. Shown only to readers who can read that pipeline."
    },
    "source_version": {
      "type": "integer",
      "minimum": 1
    },
    "supersedes": {
      "type": "string",
      "format": "uuid",
      "description": "The id of the fact this one replaces (a stale or wrong one); it is retired with reason superseded."
    }
  }
})json";

constexpr std::string_view kSemanticsListDescription =
    R"desc(List the learned facts recorded on a datasource this workspace can see — every DATASOURCE fact (whoever recorded it) and this workspace's own WORKSPACE facts — with trust, drift, refs, the evidence SQL and who recorded it through what. The same facts also arrive inline on datasources_get / _get_tables / _get_columns, which is where to read them while authoring; use this to review, to find a fact's id to supersede or retire, or to answer 'what was recorded since <time>'. Retired facts are hidden unless include_retired.)desc";
constexpr std::string_view kSemanticsListSchema = R"json({
  "type": "object",
  "required": [
    "datasource"
  ],
  "additionalProperties": false,
  "properties": {
    "datasource": {
      "type": "string",
      "description": "Datasource name."
    },
    "table": {
      "type": "string",
      "description": "Only facts with a ref on this table."
    },
    "scope": {
      "type": "string",
      "enum": [
        "DATASOURCE",
        "WORKSPACE"
      ]
    },
    "include_retired": {
      "type": "boolean",
      "default": false
    },
    "since": {
      "type": "string",
      "format": "date-time",
      "description": "Only facts recorded at or after this ISO-8601 instant."
    }
  }
})json";

constexpr std::string_view kSemanticsRetireDescription =
    R"desc(Retire one learned fact with a reason — it stops being served beside the columns but keeps its row (facts are never deleted; history is the audit). Prefer semantics_record with supersedes when you know the correct fact: that retires the old one and records the new in one step. A fact this workspace cannot see is not-found; a DATASOURCE fact another workspace established can only be retired by a workspace admin. Mutating.)desc";
constexpr std::string_view kSemanticsRetireSchema = R"json({
  "type": "object",
  "required": [
    "id",
    "reason"
  ],
  "additionalProperties": false,
  "properties": {
    "id": {
      "type": "string",
      "format": "uuid",
      "description": "The fact's id, from semantics_list or an introspection response."
    },
    "reason": {
      "type": "string",
      "minLength": 3,
      "maxLength": 300,
      "description": "Why — one sentence, kept on the row and in the audit log."
    }
  }
})json";

constexpr std::string_view kDocsListDescription =
    R"desc(The datapipelines skill's document catalog: the operating core (`skill`) first, then every reference in the order the skill's own map lists them, each with its title and a one-line purpose (when to open it). The same documents the datapipelines://docs/skill resources serve, for clients that fetch resources reluctantly or never. Read-only.)desc";
constexpr std::string_view kDocsListSchema = R"json({
  "type": "object",
  "properties": {},
  "additionalProperties": false
})json";

constexpr std::string_view kDocsGetDescription =
    R"desc(One datapipelines skill document's full markdown: `name` is `skill` for the operating core or a reference name from docs_list. Returns {name, title, markdown} — the same bytes the datapipelines://docs/skill/<name> resource serves. An unknown name is refused with the catalogued names in the error detail. Read-only.)desc";
constexpr std::string_view kDocsGetSchema = R"json({
  "type": "object",
  "required": [
    "name"
  ],
  "properties": {
    "name": {
      "type": "string",
      "description": "The document name: `skill` for the operating core, or a reference name from docs_list, e.g. authoring-playbook."
    }
  },
  "additionalProperties": false
})json";

constexpr std::string_view kPipelinesRunChecksDescription =
    R"desc(Run a pipeline version's release checks (checks[]) NOW, against their own datasources. The SERVER runs every check and persists one pipeline_check_runs row per check before returning — only the server's own run produces `observed`, and there is deliberately no pipelines_record_check tool: no tool records an observed value from a caller. Each run's verdict is pass (observed satisfied expected), fail (a value was produced and did not satisfy it), or error (no verdict could be formed: the datasource was unresolvable or unreachable, the statement was refused or returned a shape the expectation cannot compare, or the parameters did not bind — the truth recorded, never silently a fail). With no version the WORKING version's checks run (the draft when one exists, else the latest released). Returns {version, runs: [{check_id, name, expected, observed, verdict, message, ran_at}]}; an empty checks[] returns an empty runs array.)desc";
constexpr std::string_view kPipelinesRunChecksSchema = R"json({
  "type": "object",
  "required": [
    "id"
  ],
  "properties": {
    "id": {
      "type": "string",
      "format": "uuid"
    },
    "version": {
      "type": "integer",
      "description": "Specific version whose checks to run. Defaults to the WORKING version: the draft when one exists, else the latest released. Never clamped — an unknown version is refused, not rounded to the latest."
    },
    "parameters": {
      "type": "object",
      "description": "Object whose keys match the pipeline's declared parameters — the same binding pipelines_execute uses: undeclared keys are ignored, defaults fill the execute way, and the calculator context is NOT available to a check. Values must match the declared types (BIGINTEGER and BIGDECIMAL as strings, others as JSON native types).",
      "additionalProperties": true
    }
  }
})json";

constexpr std::array<ToolDefinition, 41> kTools{{
    {Operation::kPipelinesList, kPipelinesListDescription, kPipelinesListSchema},
    {Operation::kPipelinesGet, kPipelinesGetDescription, kPipelinesGetSchema},
    {Operation::kPipelinesExecute, kPipelinesExecuteDescription, kPipelinesExecuteSchema},
    {Operation::kPipelinesExecuteNode, kPipelinesExecuteNodeDescription,
     kPipelinesExecuteNodeSchema},
    {Operation::kPipelinesCreate, kPipelinesCreateDescription, kPipelinesCreateSchema},
    {Operation::kPipelinesUpdate, kPipelinesUpdateDescription, kPipelinesUpdateSchema},
    {Operation::kTemplatesList, kTemplatesListDescription, kTemplatesListSchema},
    {Operation::kTemplatesGet, kTemplatesGetDescription, kTemplatesGetSchema},
    {Operation::kTemplatesUsedBy, kTemplatesUsedByDescription, kTemplatesUsedBySchema},
    {Operation::kTemplatesCreate, kTemplatesCreateDescription, kTemplatesCreateSchema},
    {Operation::kTemplatesUpdate, kTemplatesUpdateDescription, kTemplatesUpdateSchema},
    {Operation::kTemplatesRender, kTemplatesRenderDescription, kTemplatesRenderSchema},
    {Operation::kTemplatesPurgeDraft, kTemplatesPurgeDraftDescription, kTemplatesPurgeDraftSchema},
    {Operation::kDatasourcesList, kDatasourcesListDescription, kDatasourcesListSchema},
    {Operation::kDatasourcesGet, kDatasourcesGetDescription, kDatasourcesGetSchema},
    {Operation::kDatasourcesTest, kDatasourcesTestDescription, kDatasourcesTestSchema},
    {Operation::kDatasourcesGetSchemas, kDatasourcesGetSchemasDescription,
     kDatasourcesGetSchemasSchema},
    {Operation::kDatasourcesGetTables, kDatasourcesGetTablesDescription,
     kDatasourcesGetTablesSchema},
    {Operation::kDatasourcesGetColumns, kDatasourcesGetColumnsDescription,
     kDatasourcesGetColumnsSchema},
    {Operation::kDatasourcesGetTableStats, kDatasourcesGetTableStatsDescription,
     kDatasourcesGetTableStatsSchema},
    {Operation::kDatasourcesPreviewRows, kDatasourcesPreviewRowsDescription,
     kDatasourcesPreviewRowsSchema},
    {Operation::kSqlProbe, kSqlProbeDescription, kSqlProbeSchema},
    {Operation::kExecutionsList, kExecutionsListDescription, kExecutionsListSchema},
    {Operation::kExecutionsGet, kExecutionsGetDescription, kExecutionsGetSchema},
    {Operation::kExecutionsGetResult, kExecutionsGetResultDescription, kExecutionsGetResultSchema},
    {Operation::kExecutionsCancel, kExecutionsCancelDescription, kExecutionsCancelSchema},
    {Operation::kCalculatorsList, kCalculatorsListDescription, kCalculatorsListSchema},
    {Operation::kCalculatorsGet, kCalculatorsGetDescription, kCalculatorsGetSchema},
    {Operation::kEndpointsCreate, kEndpointsCreateDescription, kEndpointsCreateSchema},
    {Operation::kEndpointsList, kEndpointsListDescription, kEndpointsListSchema},
    {Operation::kEndpointsGet, kEndpointsGetDescription, kEndpointsGetSchema},
    {Operation::kEndpointsDelete, kEndpointsDeleteDescription, kEndpointsDeleteSchema},
    {Operation::kLakeTablesRegister, kLakeTablesRegisterDescription, kLakeTablesRegisterSchema},
    {Operation::kLakeTablesImport, kLakeTablesImportDescription, kLakeTablesImportSchema},
    {Operation::kLakeTablesUnregister, kLakeTablesUnregisterDescription,
     kLakeTablesUnregisterSchema},
    {Operation::kSemanticsRecord, kSemanticsRecordDescription, kSemanticsRecordSchema},
    {Operation::kSemanticsList, kSemanticsListDescription, kSemanticsListSchema},
    {Operation::kSemanticsRetire, kSemanticsRetireDescription, kSemanticsRetireSchema},
    {Operation::kDocsList, kDocsListDescription, kDocsListSchema},
    {Operation::kDocsGet, kDocsGetDescription, kDocsGetSchema},
    {Operation::kPipelinesRunChecks, kPipelinesRunChecksDescription, kPipelinesRunChecksSchema},
}};

}  // namespace

std::span<const ToolDefinition> AllToolDefinitions() { return kTools; }

bool IsDomainCheckedArgument(std::string_view tool, std::string_view argument) {
  static constexpr std::pair<std::string_view, std::string_view> kChecked[] = {
      {"pipelines_create", "name"},
      {"pipelines_update", "name"},
      {"templates_create", "id"},
  };
  for (const auto& [t, a] : kChecked) {
    if (t == tool && a == argument) return true;
  }
  return false;
}

const ToolDefinition* FindToolDefinition(std::string_view name) {
  for (const ToolDefinition& tool : kTools) {
    if (tool.name() == name) return &tool;
  }
  return nullptr;
}

}  // namespace dp
