#!/bin/sh
# Builds the edge fuzz targets of tests/fuzz/edge_fuzz.cpp with clang (libFuzzer + ASan +
# UBSan) and fuzzes each for a bounded time. Exits non-zero on any crash, leak, timeout,
# out-of-memory, violated invariant or build failure.
#   run_edge_fuzz.sh <repo-root> <work-dir> [seconds per target, default 20]
# Env: CLANGXX (default clang++); DP_EDGE_FUZZ_SEED (default 1). Objects are rebuilt only
# when stale (as run_fuzz.sh).
# The seed is fixed so that a run is the same sequence of inputs on every machine: the test
# command replays what was fuzzed (and passed) where it was written, and a failure anywhere is
# reproducible from its seed. Explore with another seed and a longer time by hand.
set -eu
root=${1:?repo root}
work=${2:?work dir}
seconds=${3:-20}
cxx=${CLANGXX:-clang++}
seed=${DP_EDGE_FUZZ_SEED:-1}
mkdir -p "$work/obj" "$work/artifacts"

flags="-std=c++20 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined"
flags="$flags -fno-sanitize-recover=undefined -I$root/include -I$root/src"
# The tool catalog's files, compiled in as the build does (cmake/embed_files.cmake).
catalog="$work/EmbeddedToolCatalogFiles.cpp"
cmake -DOUTPUT="$catalog" -DFUNCTION=EmbeddedToolCatalogFiles -DBASE="$root/src/mcp/catalog" \
  "-DFILES=$(ls "$root"/src/mcp/catalog/*.json | paste -sd'|')" -P "$root/cmake/embed_script.cmake"
common="$root/src/domain/domain_error.cpp $root/src/domain/error_codes.cpp
  $root/src/util/utf8.cpp $root/src/util/ascii.cpp"
# name:target-number:sources:libraries
targets="
request_body:1:$root/src/util/json_body.cpp $root/src/util/crypto.cpp $root/src/util/percent_encoding.cpp $root/src/mcp/json_schema_validator.cpp $root/src/util/edit_distance.cpp $root/src/mcp/tool_definitions.cpp $catalog $root/src/service/identity/operation.cpp $root/src/net/http_message.cpp $root/src/rest/rest_support.cpp $root/src/domain/request_fields.cpp $root/src/net/envelope.cpp:-lcrypto
sql_classifier:2:$root/src/domain/sql_statement_classifier.cpp:
jdbc_url:3:$root/src/connectors/connector_config.cpp $root/src/util/percent_encoding.cpp $root/src/connectors/dialect.cpp $root/src/connectors/pool/pool_settings.cpp $root/src/service/datasources/datasource_rules.cpp $root/src/util/edit_distance.cpp:
"

stamp="$work/headers.stamp"
touch -d "$(find "$root/include" "$root/src" -name '*.hpp' -printf '%T+ %p\n' |
  sort | tail -1 | cut -d' ' -f1 | sed 's/+/ /')" "$stamp"

compile() {  # src obj [extra flags]
  src=$1; obj=$2; shift 2
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$stamp" -nt "$obj" ]; then
    # shellcheck disable=SC2086
    $cxx $flags -fsanitize=fuzzer-no-link "$@" -c "$src" -o "$obj"
  fi
}

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=0
rm -f "$work/failed"
echo "$targets" | grep . | while IFS=: read -r name number sources libs; do
  objects=""
  for src in $common $sources; do
    obj="$work/obj/$(echo "${src#$root/}" | tr / _).o"
    compile "$src" "$obj"
    objects="$objects $obj"
  done
  main="$work/obj/edge_fuzz_$name.o"
  compile "$root/tests/fuzz/edge_fuzz.cpp" "$main" -DDP_EDGE_TARGET="$number"
  binary="$work/edge_${name}_fuzz"
  # shellcheck disable=SC2086
  $cxx $flags -fsanitize=fuzzer $main $objects $libs -o "$binary"
  rm -rf "$work/corpus_$name" && mkdir -p "$work/corpus_$name"
  seeds="$work/seeds_$name"
  rm -rf "$seeds" && mkdir -p "$seeds"
  case $name in
    request_body) for f in "$root"/tests/mcp_cases/*.json "$root"/tests/hardening_cases/*.json; do
                    cp "$f" "$seeds/"; done ;;
    sql_classifier) for f in "$root"/tests/sql_classifier_cases/*; do
                      [ -f "$f" ] && cp "$f" "$seeds/"; done ;;
    jdbc_url) n=0; grep -o '"url": "[^"]*"' "$root/tests/hardening_cases/jdbc_urls.json" |
                sed 's/"url": "//; s/"$//' | while read -r url; do
                  n=$((n + 1)); printf '%s' "$url" > "$seeds/url_$n"; done ;;
  esac
  echo "edge_fuzz: $name, $(ls "$seeds" | wc -l) seeds, ${seconds}s, seed $seed"
  rm -f "$work/artifacts/$name-"*
  if ! "$binary" -seed="$seed" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -artifact_prefix="$work/artifacts/$name-" -print_final_stats=1 \
      "$work/corpus_$name" "$seeds"; then
    echo "edge_fuzz: $name FAILED (seed $seed); reproducer(s) in $work/artifacts:" >&2
    # The input itself, so a log tail alone is enough to reproduce it.
    for artifact in "$work/artifacts/$name-"*; do
      [ -f "$artifact" ] && echo "$artifact" >&2 && head -c 256 "$artifact" | od -An -c >&2
    done
    echo failed >"$work/failed"
  fi
done
if [ -f "$work/failed" ]; then rm -f "$work/failed"; failed=1; fi
if [ "$failed" -ne 0 ]; then exit 1; fi
echo "edge_fuzz: no crash, leak, timeout or violated invariant"
