# The dispatcher fuzz tree (issue 9): configured with -DDP_FUZZ=ON and clang by
# tests/fuzz/run_dispatcher_fuzz.sh into a build tree of its own, it defines only
# dp_dispatcher_fuzz — tests/fuzz/dispatcher_fuzz.cpp over the JSON-RPC dispatcher
# (McpHttpEndpoint → McpServer) and the real auth, audit and SQLite metadata store it needs.
# The whole module graph (connectors, executor, templates, DuckDB) is ~220 sanitized sources (~15
# CPU-minutes cold, over the fuzz test's budget); these are the ones the dispatcher links (the
# account services call the mail notices, so mail/ comes too),
# at -O1 with line tables only (ASan/UBSan reports keep file:line, objects stay small).
set(DP_FUZZ_FLAGS -O1 -gline-tables-only -fno-omit-frame-pointer
                  -fsanitize=address,undefined -fno-sanitize-recover=undefined)

set(dp_fuzz_sources "")
foreach(dir util domain limits net store mail)
  file(GLOB module_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${dir}/*.cpp)
  list(APPEND dp_fuzz_sources ${module_sources})
endforeach()
foreach(source
    connectors/sqlite/sqlite_hardening.cpp
    redis/redis_url.cpp
    redis/redis_connection.cpp redis/redis_pool.cpp
    service/identity/access_policy.cpp service/identity/account_rules.cpp
    service/identity/api_key_format.cpp service/identity/attempt_window.cpp
    service/identity/login_throttle.cpp service/identity/operation.cpp
    service/identity/secret_hasher.cpp
    service/audit/audit_log.cpp service/identity/auth_service.cpp service/identity/auth_records.cpp
    service/identity/authenticator.cpp service/identity/api_key_service.cpp service/identity/account_administration.cpp
    service/docs/skill_docs.cpp service/list_window.cpp
    service/identity/request_authenticator.cpp service/identity/forced_password_change.cpp
    service/identity/invitations.cpp service/audit/access_audit.cpp
    mcp/mcp_server.cpp mcp/mcp_http_endpoint.cpp mcp/json_schema_validator.cpp
    mcp/tool_catalog.cpp mcp/tool_definitions.cpp mcp/resource_cursor.cpp
    mcp/tools/docs_tools.cpp)
  list(APPEND dp_fuzz_sources ${PROJECT_SOURCE_DIR}/src/${source})
endforeach()
file(GLOB prompt_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/mcp/prompts/*.cpp)
list(APPEND dp_fuzz_sources ${prompt_sources})

add_library(dp_dispatcher_deps STATIC ${dp_fuzz_sources})
target_include_directories(dp_dispatcher_deps PUBLIC ${PROJECT_SOURCE_DIR}/include
                                              PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_options(dp_dispatcher_deps PUBLIC ${DP_FUZZ_FLAGS}
                                          PRIVATE -fsanitize=fuzzer-no-link)
# The prelude (nlohmann/json and the standard headers) parsed once, as in the main build.
# No timestamp in the .pch, so ccache can reuse the objects built with it.
target_precompile_headers(dp_dispatcher_deps PRIVATE
                          ${PROJECT_SOURCE_DIR}/include/datapipelines/prelude.hpp)
target_compile_options(dp_dispatcher_deps PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
target_link_libraries(dp_dispatcher_deps PUBLIC
    Threads::Threads nlohmann_json::nlohmann_json spdlog::spdlog OpenSSL::Crypto OpenSSL::SSL
    Boost::headers
    PkgConfig::SQLITE3 PkgConfig::PQXX PkgConfig::HIREDIS PkgConfig::ARGON2)

file(GLOB DP_SKILL_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/skill/*.md
     ${PROJECT_SOURCE_DIR}/skill/references/*.md)
dp_embed_files(TARGET dp_dispatcher_deps FUNCTION EmbeddedSkillFiles
               BASE ${PROJECT_SOURCE_DIR}/skill FILES ${DP_SKILL_FILES})
file(GLOB DP_MIGRATION_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/store/migrations/*/*.sql)
dp_embed_files(TARGET dp_dispatcher_deps FUNCTION EmbeddedMigrationFiles
               BASE ${PROJECT_SOURCE_DIR}/src/store/migrations FILES ${DP_MIGRATION_FILES})

file(GLOB DP_TOOL_CATALOG_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/mcp/catalog/*.json)
dp_embed_files(TARGET dp_dispatcher_deps FUNCTION EmbeddedToolCatalogFiles
               BASE ${PROJECT_SOURCE_DIR}/src/mcp/catalog FILES ${DP_TOOL_CATALOG_FILES})

add_executable(dp_dispatcher_fuzz ${PROJECT_SOURCE_DIR}/tests/fuzz/dispatcher_fuzz.cpp)
target_compile_options(dp_dispatcher_fuzz PRIVATE -fsanitize=fuzzer)
target_link_options(dp_dispatcher_fuzz PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_libraries(dp_dispatcher_fuzz PRIVATE dp_dispatcher_deps)
