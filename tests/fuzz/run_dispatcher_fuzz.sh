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
n=0
for file in "$root"/tests/mcp_cases/*.json; do
  jq -c '.[].request' "$file" >"$build/requests.jsonl"
  while IFS= read -r request; do
    n=$((n + 1))
    printf '%s' "$request" >"$seeds/request_$n"
    for who in viewer operator readkey lost removed revoked super; do
      case $((n % 7)) in
        0) [ "$who" = viewer ] || continue ;; 1) [ "$who" = operator ] || continue ;;
        2) [ "$who" = readkey ] || continue ;; 3) [ "$who" = lost ] || continue ;;
        4) [ "$who" = removed ] || continue ;; 5) [ "$who" = revoked ] || continue ;;
        *) [ "$who" = super ] || continue ;;
      esac
      printf 'DP-API-Key: @%s\nMCP-Protocol-Version: 2025-06-18\n\n%s' "$who" "$request" \
        >"$seeds/headed_$n"
    done
  done <"$build/requests.jsonl"
done
jq -c '.[] | select(.surface == "mcp") | [.body, .open, .close, ([.depth, 66] | min)]' \
  "$root/tests/hardening_cases/request_bodies.json" >"$build/bodies.jsonl"
while IFS= read -r spec; do
  n=$((n + 1))
  printf '%s\n' "$spec" | jq -j '. as [$body, $open, $close, $depth] |
    ($body | split("@")) as $parts |
    $parts[0] + ($open * $depth) + "1" + ($close * $depth) + ($parts[1:] | join("@"))' \
    >"$seeds/body_$n"
done <"$build/bodies.jsonl"
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
