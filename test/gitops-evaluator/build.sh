#!/usr/bin/env bash
# Builds the gitops-evaluator binary into a cache keyed by the cel-go version it requires and its sources.
# Prints the binary's path. Reuses a finished build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=$(awk '$1=="github.com/google/cel-go" && $2 ~ /^v/ {print "cel-go-" $2; exit}' "$here/go.mod")
cache_root=${KUBECTL_ASO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-aso}
out="$cache_root/gitops-evaluator/$version"
# The sources' hash is part of the check, so an edit to the Go files rebuilds instead of reusing a stale binary.
sources=$(cd "$here" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)
if [ -x "$out/gitops-evaluator" ] && [ "$(cat "$out/sources" 2>/dev/null)" = "$sources" ]; then
  echo "$out/gitops-evaluator"
  exit 0
fi
command -v go >/dev/null || { echo "gitops-evaluator build: go is not on PATH" >&2; exit 3; }
# Two test runs may start on a fresh machine at once: one builds, the other waits and reuses its result.
mkdir -p "$out"
exec 9>"$out.lock"
flock 9
if [ -x "$out/gitops-evaluator" ] && [ "$(cat "$out/sources" 2>/dev/null)" = "$sources" ]; then
  echo "$out/gitops-evaluator"
  exit 0
fi
cd "$here"
start=$(date +%s)
echo "gitops-evaluator build: $version" >&2
CGO_ENABLED=0 go build -trimpath -o "$out/gitops-evaluator.tmp" .
mv "$out/gitops-evaluator.tmp" "$out/gitops-evaluator"
echo "$sources" >"$out/sources"
echo "gitops-evaluator build: done in $(( $(date +%s) - start ))s" >&2
echo "$out/gitops-evaluator"
