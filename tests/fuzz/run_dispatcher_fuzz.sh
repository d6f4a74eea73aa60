#!/bin/sh
# Builds the JSON-RPC dispatcher fuzz target (tests/fuzz/dispatcher_fuzz.cpp) in a clang build
# tree of its own (cmake/fuzz_tree.cmake: libFuzzer + ASan + UBSan over only the sources the
# dispatcher links) and fuzzes it for a bounded time. Exits non-zero on any crash, leak,
# timeout, out-of-memory, violated invariant or build failure.
#   run_dispatcher_fuzz.sh <repo-root> <build-dir> [seconds, default 60]
# Env: CLANGXX (default clang++); DP_DISPATCHER_FUZZ_SEED (default 1); JOBS (default 2).
# The seed is fixed so a run is the same sequence of inputs on every machine (as
# run_edge_fuzz.sh); explore with another seed and a longer time by hand. The build tree is
# configured once and rebuilt incrementally (ccache when present).
set -eu
root=${1:?repo root}
build=${2:?build dir}
seconds=${3:-60}
cxx=${CLANGXX:-clang++}
seed=${DP_DISPATCHER_FUZZ_SEED:-1}
jobs=${JOBS:-2}

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DDP_FUZZ=ON \
    -DDP_BUILD_TESTS=OFF -DDP_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Fuzz >/dev/null
fi
started=$(date +%s)
ninja -C "$build" -j "$jobs" dp_dispatcher_fuzz
echo "dispatcher_fuzz: built in $(($(date +%s) - started))s"

# Seeds: every request of tests/mcp_cases, each also behind a header block naming a principal
# (so the refusals are reached too), and the MCP bodies of tests/hardening_cases with their
# nesting cut to the limit's neighbourhood (the real depth bombs are the unit test's job).
seeds="$build/seeds"
corpus="$build/corpus"
artifacts="$build/artifacts"
rm -rf "$seeds" "$corpus" "$artifacts" && mkdir -p "$seeds" "$corpus" "$artifacts"
python3 - "$root" "$seeds" <<'PY'
import json, pathlib, sys
root, seeds = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
who = ["viewer", "operator", "readkey", "lost", "removed", "revoked", "super", "admin"]
n = 0
for path in sorted((root / "tests/mcp_cases").glob("*.json")):
    for case in json.loads(path.read_text()):
        n += 1
        request = json.dumps(case["request"], separators=(",", ":"))
        (seeds / f"request_{n}").write_text(request)
        (seeds / f"headed_{n}").write_text(
            f"DP-API-Key: @{who[n % len(who)]}\nMCP-Protocol-Version: 2025-06-18\n\n{request}")
for case in json.loads((root / "tests/hardening_cases/request_bodies.json").read_text()):
    if case.get("surface") != "mcp":
        continue
    n += 1
    depth = min(case["depth"], 66)
    nested = case["open"] * depth + "1" + case["close"] * depth
    (seeds / f"body_{n}").write_text(case["body"].replace("@", nested, 1))
PY
printf 'Authorization: Bearer @author\n\n[{"jsonrpc":"2.0","id":1,"method":"ping"}]' >"$seeds/batch"
printf 'DP-API-Key: @author\n\n{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  >"$seeds/notification"
printf 'DP-API-Key: @author\n\n{"jsonrpc":"2.0","id":9,"result":{}}' >"$seeds/client_response"
printf 'MCP-Protocol-Version: 1999-01-01\n\n{"jsonrpc":"2.0","id":1,"method":"ping"}' \
  >"$seeds/protocol_version"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
echo "dispatcher_fuzz: $(ls "$seeds" | wc -l) seeds, ${seconds}s, seed $seed"
if ! "$build/dp_dispatcher_fuzz" -seed="$seed" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=16384 -artifact_prefix="$artifacts/" -print_final_stats=1 \
    "$corpus" "$seeds"; then
  echo "dispatcher_fuzz: FAILED (seed $seed); reproducer(s) in $artifacts:" >&2
  for artifact in "$artifacts"/*; do
    [ -f "$artifact" ] && echo "$artifact" >&2 && head -c 256 "$artifact" | od -An -c >&2
  done
  exit 1
fi
echo "dispatcher_fuzz: no crash, leak, timeout or violated invariant"
