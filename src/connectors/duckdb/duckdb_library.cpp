// DuckDB's C API, opened on first use: every function DP_DUCKDB_FUNCTIONS lists is defined here
// as a call through the library's own symbol. Loading libduckdb.so at start would relocate ~10 MB
// of its pages into every server's idle RSS (half of it), used or not.
#include <dlfcn.h>

#include <stdexcept>
#include <string>

#include "duckdb_c_api.hpp"

namespace dp {
namespace {

struct DuckDbApi {
#define DP_DUCKDB_POINTER(ret, name, params, args) ret(*name) params = nullptr;
  DP_DUCKDB_FUNCTIONS(DP_DUCKDB_POINTER)
#undef DP_DUCKDB_POINTER
};

// Where the library is: the binary's own search path first (an installed server's RUNPATH
// names ../lib/datapipelines), then the build tree's copy (scripts/install-duckdb).
void* OpenLibrary() {
  if (void* handle = ::dlopen("libduckdb.so", RTLD_NOW | RTLD_LOCAL)) return handle;
  std::string first_error = ::dlerror();
  if (void* handle = ::dlopen(DP_DUCKDB_BUILD_PATH, RTLD_NOW | RTLD_LOCAL)) return handle;
  throw std::runtime_error("the DuckDB engine (libduckdb.so) cannot be loaded: " + first_error);
}

DuckDbApi Load() {
  void* handle = OpenLibrary();
  DuckDbApi api;
#define DP_DUCKDB_RESOLVE(ret, name, params, args)                         \
  api.name = reinterpret_cast<decltype(api.name)>(::dlsym(handle, #name)); \
  if (!api.name) throw std::runtime_error("libduckdb.so has no " #name " (DuckDB 1.5 expected)");
  DP_DUCKDB_FUNCTIONS(DP_DUCKDB_RESOLVE)
#undef DP_DUCKDB_RESOLVE
  return api;
}

// Loaded once, by the first caller (a failed load throws to that caller and is tried again
// by the next). The handle stays open for the life of the process.
const DuckDbApi& Api() {
  static const DuckDbApi api = Load();
  return api;
}

}  // namespace
}  // namespace dp

extern "C" {
#define DP_DUCKDB_DEFINE(ret, name, params, args) \
  ret name params { return dp::Api().name args; }
DP_DUCKDB_FUNCTIONS(DP_DUCKDB_DEFINE)
#undef DP_DUCKDB_DEFINE
}
