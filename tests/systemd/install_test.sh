#!/usr/bin/env bash
# scripts/install staged under a scratch root (--root): every file lands with its mode, and a
# second run upgrades the binary and the unit but keeps the configuration and the secrets.
# Usage: install_test.sh path/to/datapipelines
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$here/../.."
binary="$(realpath "$1")"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mode() { stat -c %a "$root/$1"; }

"$repo/scripts/install" --root "$root" --binary "$binary" >"$root.log" 2>&1 || { cat "$root.log"; fail "first run"; }
[[ "$(mode usr/bin/datapipelines)" == 755 ]] || fail "binary mode"
cmp -s "$binary" "$root/usr/bin/datapipelines" || fail "binary differs"
[[ -f "$root/usr/lib/datapipelines/libduckdb.so" ]] || fail "libduckdb.so not installed"
# The installed binary resolves DuckDB from its own ../lib/datapipelines.
readelf -d "$root/usr/bin/datapipelines" | grep -q 'ORIGIN/../lib/datapipelines' || fail "no RPATH to ../lib/datapipelines"
cmp -s "$repo/config/datapipelines.service" "$root/etc/systemd/system/datapipelines.service" || fail "unit differs"
[[ "$(mode etc/datapipelines/env)" == 600 ]] || fail "env file mode $(mode etc/datapipelines/env)"
[[ "$(mode etc/datapipelines/datapipelines.yaml)" == 640 ]] || fail "config mode"
[[ "$(mode var/lib/datapipelines)" == 700 ]] || fail "data dir mode"
grep -Eq '^DATAPIPELINES_DB_ENCRYPTION_KEY=[A-Za-z0-9+/]{43}=$' "$root/etc/datapipelines/env" || fail "no generated key"
[[ -f "$root/usr/share/doc/datapipelines/operations.md" ]] || fail "docs"
# The generated key is one the server accepts.
key="$(sed -n 's/^DATAPIPELINES_DB_ENCRYPTION_KEY=//p' "$root/etc/datapipelines/env")"
DATAPIPELINES_DB_ENCRYPTION_KEY="$key" DATAPIPELINES_DATA_DIR="$root/data" \
  "$root/usr/bin/datapipelines" --config "$root/etc/datapipelines/datapipelines.yaml" migrate \
  >/dev/null 2>"$root.err" || { cat "$root.err"; fail "the installed config and key do not start"; }

before_env="$(cat "$root/etc/datapipelines/env")"
echo "# edited by the operator" >>"$root/etc/datapipelines/datapipelines.yaml"
"$repo/scripts/install" --root "$root" --binary "$binary" >"$root.log" 2>&1 || { cat "$root.log"; fail "second run"; }
[[ "$(cat "$root/etc/datapipelines/env")" == "$before_env" ]] || fail "second run replaced the secrets"
grep -q '^# edited by the operator$' "$root/etc/datapipelines/datapipelines.yaml" || fail "second run replaced the config"
grep -q 'keeping' "$root.log" || fail "second run did not say what it kept"
rm -f "$root.log" "$root.err"
echo "scripts/install: staged install and idempotent re-run as expected"
