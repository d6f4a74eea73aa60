# One precompiled prelude for the whole build: the first target compiles it, every other
# target reuses that .gch instead of compiling its own copy (REUSE_FROM).
set(DP_PRELUDE_OWNER "" CACHE INTERNAL "")
function(dp_use_prelude target)
  if(DP_PRELUDE_OWNER)
    target_precompile_headers(${target} REUSE_FROM ${DP_PRELUDE_OWNER})
  else()
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include/datapipelines/prelude.hpp)
    set(DP_PRELUDE_OWNER ${target} CACHE INTERNAL "")
  endif()
endfunction()

# Unity builds: a module's sources compile as a few large translation units instead of one
# each, so the headers every file includes (the JSON library, spdlog, the standard library)
# are parsed once per batch rather than once per file — most of a cold build's time on two
# cores. A file-local helper therefore needs a name unique within its module. Off for the
# developer loop on one file: -DDP_UNITY=OFF.
option(DP_UNITY "Compile each module and test suite as unity batches" ON)
set(DP_UNITY_BATCH_SIZE 12 CACHE STRING "Sources per unity translation unit")
function(dp_use_unity target)
  if(DP_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                          UNITY_BUILD_BATCH_SIZE ${DP_UNITY_BATCH_SIZE})
    # GCC sees the .cpp files a unity file includes as headers, and warns that a class of the
    # file (HttpServer::Impl, say) holds a type from the file's anonymous namespace — true of
    # every such class and harmless: each .cpp is still its own module's only user of it.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
endfunction()

# dp_add_module(name DEPS ...): a static library dp_<name> from src/<name>/**.cpp.
# A module with no sources yet is an INTERFACE library so the graph stays whole.
set(DP_MODULE_TARGETS "" CACHE INTERNAL "")
function(dp_add_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cpp)
  set(target dp_${name})
  if(sources)
    add_library(${target} STATIC ${sources})
    target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/include
                                         PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(${target} PUBLIC ${ARG_DEPS})
    dp_use_prelude(${target})
    dp_use_unity(${target})
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(${target} INTERFACE ${ARG_DEPS})
  endif()
  set(DP_MODULE_TARGETS ${DP_MODULE_TARGETS} ${target} CACHE INTERNAL "")
endfunction()

# dp_add_test_suite(kind module): tests/<kind>/<module>/*.cpp -> dp_<kind>_<module>.
function(dp_add_test_suite kind module)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/${kind}/${module}/*.cpp)
  if(NOT sources)
    return()
  endif()
  set(target dp_${kind}_${module})
  add_executable(${target} ${sources})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  target_link_libraries(${target} PRIVATE dp_core GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_definitions(${target} PRIVATE DP_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  dp_use_prelude(${target})
  dp_use_unity(${target})
  include(GoogleTest)
  gtest_discover_tests(${target} TEST_PREFIX "${kind}." PROPERTIES LABELS ${kind} DISCOVERY_TIMEOUT 60)
endfunction()
