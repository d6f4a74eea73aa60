# The web UI's assets (issue 17): page templates and the stylesheet from ui/, and htmx from the
# `htmx.org` npm package pinned in ui/package.json with its sha512 in ui/package-lock.json.
# `npm ci` installs exactly the locked bytes (it refuses a tarball whose integrity differs), once,
# at configure time; the build then compiles the file into the binary — no CDN, no JS build chain.
set(DP_HTMX_FILE ${PROJECT_SOURCE_DIR}/ui/node_modules/htmx.org/dist/htmx.min.js)
if(NOT EXISTS ${DP_HTMX_FILE})
  find_program(DP_NPM npm REQUIRED)
  message(STATUS "ui: npm ci (htmx.org, integrity-checked by ui/package-lock.json)")
  execute_process(COMMAND ${DP_NPM} ci --no-audit --no-fund --loglevel=error
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/ui RESULT_VARIABLE dp_npm_result)
  if(NOT dp_npm_result EQUAL 0 OR NOT EXISTS ${DP_HTMX_FILE})
    message(FATAL_ERROR "ui: npm ci in ui/ failed; htmx cannot be embedded")
  endif()
endif()
file(GLOB DP_UI_TEMPLATE_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/ui/templates/*.ftl)
dp_embed_files(TARGET dp_ui FUNCTION EmbeddedUiTemplates BASE ${PROJECT_SOURCE_DIR}/ui/templates
               FILES ${DP_UI_TEMPLATE_FILES})
file(GLOB DP_UI_STATIC_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/ui/static/*)
dp_embed_files(TARGET dp_ui FUNCTION EmbeddedUiStatic BASE ${PROJECT_SOURCE_DIR}/ui/static
               FILES ${DP_UI_STATIC_FILES})
dp_embed_files(TARGET dp_ui FUNCTION EmbeddedHtmx BASE ${PROJECT_SOURCE_DIR}/ui/node_modules/htmx.org/dist
               FILES ${DP_HTMX_FILE})
