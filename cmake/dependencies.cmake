# Every dependency comes from a Debian package (scripts/setup installs them).
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(spdlog REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
if(DP_BUILD_TESTS)  # a server-only build (scripts/install, quickstart) needs no GoogleTest
  find_package(GTest REQUIRED)
endif()
find_package(PkgConfig REQUIRED)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
pkg_check_modules(PQXX REQUIRED IMPORTED_TARGET libpqxx)
pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET hiredis)
pkg_check_modules(ARGON2 REQUIRED IMPORTED_TARGET libargon2)
pkg_check_modules(MARIADB REQUIRED IMPORTED_TARGET libmariadb)
pkg_check_modules(PQ REQUIRED IMPORTED_TARGET libpq)
# The template engine's regular-expression built-ins (?matches, ?replace(re, s, "r"), ...).
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
# DuckDB's shared library (C API) is not a Debian package: scripts/install-duckdb puts a
# checksum-checked copy in third_party/duckdb/. Nothing links it: connectors/duckdb/duckdb_library.cpp
# opens it on first use, from the binary's own search path or, failing that, this folder.
set(DP_DUCKDB_DIR "${PROJECT_SOURCE_DIR}/third_party/duckdb" CACHE PATH "folder holding libduckdb.so")
if(DP_FUZZ)
  return()  # the dispatcher fuzz tree links no DuckDB
endif()
if(NOT EXISTS "${DP_DUCKDB_DIR}/libduckdb.so")
  message(FATAL_ERROR "libduckdb.so not found in ${DP_DUCKDB_DIR}: run scripts/setup (or scripts/install-duckdb)")
endif()
