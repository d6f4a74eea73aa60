#!/bin/sh
# Differential check: renders every golden case in tests/template_cases through Apache
# FreeMarker 2.3.31 (Debian libfreemarker-java) and fails on any difference from the case's
# expectation. Compiles the oracle into the build dir first; one JVM runs all cases.
#   run_oracle.sh <repo-root> <work-dir>
set -eu
root=${1:?repo root}
work=${2:?work dir}
jar=${FREEMARKER_JAR:-/usr/share/java/freemarker.jar}
if [ ! -f "$jar" ]; then
  echo "freemarker.jar not found at $jar (install libfreemarker-java)" >&2
  exit 1
fi
mkdir -p "$work"
javac -nowarn -d "$work" -cp "$jar" "$root/tools/freemarker-oracle/FreeMarkerOracle.java"
exec java -Xss8m -cp "$jar:$work" FreeMarkerOracle check "$root/tests/template_cases"
