#!/usr/bin/env bash
# Builds the operator-conversion binary into a cache keyed by the ASO version this module requires.
# Prints the binary's path. Reuses a finished build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
aso_version=$(awk '$1=="github.com/Azure/azure-service-operator/v2" && $2 ~ /^v/ {print $2; exit}' "$here/go.mod")
cache_root=${KUBECTL_ASO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-aso}
out="$cache_root/operator-conversion/$aso_version"
# The sources' hash is part of the check, so an edit to the Go files rebuilds instead of reusing a stale binary.
sources=$(cd "$here" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)
if [ -x "$out/operator-conversion" ] && [ "$(cat "$out/sources" 2>/dev/null)" = "$sources" ]; then
  echo "$out/operator-conversion"
  exit 0
fi
command -v go >/dev/null || { echo "operator-conversion build: go is not on PATH" >&2; exit 3; }
# Two test runs may start on a fresh machine at once: one builds, the other waits and reuses its result.
mkdir -p "$out"
exec 9>"$out.lock"
flock 9
if [ -x "$out/operator-conversion" ] && [ "$(cat "$out/sources" 2>/dev/null)" = "$sources" ]; then
  echo "$out/operator-conversion"
  exit 0
fi
cd "$here"
start=$(date +%s)
echo "operator-conversion build: ASO $aso_version (a cold build takes minutes)" >&2
CGO_ENABLED=0 go build -trimpath -o "$out/operator-conversion.tmp" .
mv "$out/operator-conversion.tmp" "$out/operator-conversion"
echo "$sources" >"$out/sources"
echo "operator-conversion build: done in $(( $(date +%s) - start ))s" >&2
echo "$out/operator-conversion"
