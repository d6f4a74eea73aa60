# libFuzzer target for the template parser/renderer (issue 4): tests/fuzz/run_fuzz.sh compiles
# tests/fuzz/template_parser_fuzz.cpp with the template, domain-error and UTF-8 sources under
# clang++ -fsanitize=fuzzer,address,undefined into the build dir (the main build uses g++, so
# this is a separate compile, like the oracle's javac step) and fuzzes for a bounded time from
# the seed corpus of tests/template_cases. The test fails on any crash, leak, timeout or OOM.
# Include after enable_testing().
find_program(DP_CLANGXX NAMES clang++ clang++-14)
set(DP_FUZZ_SECONDS 30 CACHE STRING "Bounded run time of fuzz.template")
if(DP_CLANGXX)
  add_test(NAME fuzz.template
           COMMAND sh ${PROJECT_SOURCE_DIR}/tests/fuzz/run_fuzz.sh
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/fuzz ${DP_FUZZ_SECONDS})
  # Budget: a cold sanitizer compile of ~20 sources (minutes on 2 cores) plus the fuzz run.
  set_tests_properties(fuzz.template PROPERTIES
                       LABELS fuzz TIMEOUT 900
                       ENVIRONMENT CLANGXX=${DP_CLANGXX})
else()
  message(STATUS "clang++ not found: fuzz.template disabled "
                 "(apt-get install clang libclang-rt-14-dev)")
endif()

# libFuzzer targets for the server's edge (issue 9): request bodies + tool input schemas +
# REST path/query/cookie parsing, the SQL statement classifier, the connector URL parser and
# the jdbc_url credential rules (tests/fuzz/edge_fuzz.cpp, tests/fuzz/run_edge_fuzz.sh).
set(DP_EDGE_FUZZ_SECONDS 10 CACHE STRING "Bounded run time of each fuzz.edge target")
if(DP_CLANGXX)
  add_test(NAME fuzz.edge
           COMMAND sh ${PROJECT_SOURCE_DIR}/tests/fuzz/run_edge_fuzz.sh
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/edge_fuzz ${DP_EDGE_FUZZ_SECONDS})
  set_tests_properties(fuzz.edge PROPERTIES
                       LABELS fuzz TIMEOUT 900
                       ENVIRONMENT CLANGXX=${DP_CLANGXX})
endif()

# libFuzzer target for the JSON-RPC dispatcher (issue 9): POST /mcp through McpHttpEndpoint and
# McpServer over the real store, auth and audit (tests/fuzz/dispatcher_fuzz.cpp). It links far
# more than the two above, so it is a CMake tree of its own, configured with clang and
# -DDP_FUZZ=ON (cmake/fuzz_tree.cmake) in build/dispatcher_fuzz by
# tests/fuzz/run_dispatcher_fuzz.sh. Budget: a cold build of ~65 sanitized sources (about 3-5
# minutes on 2 cores) plus the fuzz run.
set(DP_DISPATCHER_FUZZ_SECONDS 30 CACHE STRING "Bounded run time of fuzz.dispatcher")
if(DP_CLANGXX)
  add_test(NAME fuzz.dispatcher
           COMMAND sh ${PROJECT_SOURCE_DIR}/tests/fuzz/run_dispatcher_fuzz.sh
                   ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/dispatcher_fuzz
                   ${DP_DISPATCHER_FUZZ_SECONDS})
  set_tests_properties(fuzz.dispatcher PROPERTIES
                       LABELS fuzz TIMEOUT 1200
                       ENVIRONMENT CLANGXX=${DP_CLANGXX})
endif()
