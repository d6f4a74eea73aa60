#!/usr/bin/env bash
# The shipped systemd unit: `systemd-analyze verify` clean and `systemd-analyze security`
# exposure at most 2.0 (issue 18). verify needs ExecStart's binary to exist, so it checks a
# copy whose ExecStart names the built binary; every other line is the shipped unit's.
# Usage: check_unit.sh path/to/datapipelines
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
unit="$here/../../config/datapipelines.service"
binary="$(realpath "$1")"
command -v systemd-analyze >/dev/null || { echo "systemd-analyze is required (package systemd)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sed "s#/usr/bin/datapipelines#$binary#" "$unit" >"$work/datapipelines.service"
if ! systemd-analyze verify "$work/datapipelines.service" 2>"$work/verify.log"; then
  cat "$work/verify.log" >&2
  echo "FAIL: systemd-analyze verify" >&2
  exit 1
fi
if [[ -s "$work/verify.log" ]]; then
  cat "$work/verify.log" >&2
  echo "FAIL: systemd-analyze verify printed warnings" >&2
  exit 1
fi
exposure="$(systemd-analyze security --offline=true "$unit" 2>&1 |
  sed -n 's/.*Overall exposure level for datapipelines.service: \([0-9.]*\).*/\1/p')"
[[ -n "$exposure" ]] || { echo "FAIL: no exposure level reported" >&2; exit 1; }
if ! awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }'; then
  systemd-analyze security --offline=true "$unit" >&2 || true
  echo "FAIL: exposure $exposure > 2.0" >&2
  exit 1
fi
echo "systemd unit: verify clean, exposure $exposure"
