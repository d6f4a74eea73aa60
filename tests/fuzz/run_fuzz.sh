#!/bin/sh
# Builds the template parser fuzz target with clang (libFuzzer + ASan + UBSan) from the template,
# domain-error and UTF-8 sources, then fuzzes for a bounded time from the golden-case seed
# corpus. Exits non-zero on any crash, leak, timeout, out-of-memory or build failure.
#   run_fuzz.sh <repo-root> <work-dir> [max_total_time seconds, default 60]
# Env: CLANGXX (default clang++). Objects are rebuilt only when their source or any header of
# the template, domain or util modules is newer, so a re-run fuzzes within seconds.
set -eu
root=${1:?repo root}
work=${2:?work dir}
seconds=${3:-60}
cxx=${CLANGXX:-clang++}
mkdir -p "$work/obj" "$work/artifacts"

flags="-std=c++20 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined"
flags="$flags -fno-sanitize-recover=undefined -I$root/include -I$root/src"
# The template module and the dependency-free utilities it may use (no OpenSSL/spdlog needed).
sources="$root/tests/fuzz/template_parser_fuzz.cpp $(find "$root/src/template" -name '*.cpp' | sort)
  $root/src/domain/domain_error.cpp $root/src/domain/error_codes.cpp"
for util in utf8 ascii; do
  if [ -f "$root/src/util/$util.cpp" ]; then sources="$sources $root/src/util/$util.cpp"; fi
done

# Newest header: an object older than it is rebuilt.
stamp="$work/headers.stamp"
touch -d "$(find "$root/include/datapipelines/template" "$root/include/datapipelines/domain" \
  "$root/include/datapipelines/util" "$root/src/template" -name '*.hpp' -printf '%T+ %p\n' |
  sort | tail -1 | cut -d' ' -f1 | sed 's/+/ /')" "$stamp"

objects=""
stale=""
for src in $sources; do
  obj="$work/obj/$(echo "${src#$root/}" | tr / _).o"
  objects="$objects $obj"
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$stamp" -nt "$obj" ]; then
    stale="$stale $src:$obj"
  fi
done
if [ -n "$stale" ]; then
  echo "fuzz: compiling $(echo "$stale" | wc -w | tr -d " ") sources with $cxx"
  # Coverage instrumentation only; the fuzzer runtime is linked below.
  echo "$stale" | tr ' ' '\n' | grep . | xargs -P 2 -I{} sh -c \
    'src=${1%%:*}; obj=${1#*:}; '"$cxx $flags"' -fsanitize=fuzzer-no-link -c "$src" -o "$obj"' _ {}
fi
binary="$work/template_parser_fuzz"
# shellcheck disable=SC2086
$cxx $flags -fsanitize=fuzzer $objects -lpcre2-8 -o "$binary"

# Seeds: every golden case's template and libraries; a fresh writable corpus each run.
rm -rf "$work/seeds" "$work/corpus"
mkdir -p "$work/seeds" "$work/corpus"
for case_dir in "$root"/tests/template_cases/*/; do
  name=$(basename "$case_dir")
  for f in "$case_dir"template.ftl "$case_dir"lib_*.ftl; do
    [ -f "$f" ] && cp "$f" "$work/seeds/$name-$(basename "$f")"
  done
done
# A fixed seed (as run_edge_fuzz.sh): every machine replays the input sequence that passed
# where it was written; DP_FUZZ_SEED explores another.
seed=${DP_FUZZ_SEED:-1}
echo "fuzz: $(ls "$work/seeds" | wc -l) seeds, ${seconds}s, seed $seed"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
"$binary" -seed="$seed" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=8192 \
  -dict="$root/tests/fuzz/template.dict" -artifact_prefix="$work/artifacts/" \
  -print_final_stats=1 "$work/corpus" "$work/seeds" || status=$?
if [ "$status" -ne 0 ]; then
  echo "fuzz: FAILED (exit $status, seed $seed); reproducer(s) in $work/artifacts:" >&2
  ls -l "$work/artifacts" >&2
  for artifact in "$work/artifacts/"*; do
    [ -f "$artifact" ] && head -c 256 "$artifact" | od -An -c >&2
  done
  exit 1
fi
echo "fuzz: no crash, leak or timeout in ${seconds}s"
