#!/usr/bin/env bash
# Builds Azure Service Operator's controller (cmd/controller at the version this module requires) into a cache
# keyed by that version. Prints the binary's path. Reuses a finished build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
aso_version=$(awk '$1=="github.com/Azure/azure-service-operator/v2" && $2 ~ /^v/ {print $2; exit}' "$here/go.mod")
cache_root=${KUBECTL_ASO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-aso}
out="$cache_root/operator-controller/$aso_version"
# go.mod/go.sum are the whole input (the module has no Go files), so their hash decides whether a build is stale.
sources=$(cd "$here" && cat go.mod go.sum | sha256sum | cut -c1-16)
if [ -x "$out/controller" ] && [ "$(cat "$out/sources" 2>/dev/null)" = "$sources" ]; then
  echo "$out/controller"
  exit 0
fi
# --cached-only: say whether a finished build is there, without building (exit 4 when it is not).
[ "${1:-}" = --cached-only ] && exit 4
command -v go >/dev/null || { echo "operator-controller build: go is not on PATH" >&2; exit 3; }
# Two test runs may start on a fresh machine at once: one builds, the other waits and reuses its result.
mkdir -p "$out"
exec 9>"$out.lock"
flock 9
if [ -x "$out/controller" ] && [ "$(cat "$out/sources" 2>/dev/null)" = "$sources" ]; then
  echo "$out/controller"
  exit 0
fi
cd "$here"
start=$(date +%s)
echo "operator-controller build: ASO $aso_version cmd/controller (a cold build takes many minutes)" >&2
# nice: the build competes with the test run that asked for it on small machines.
CGO_ENABLED=0 nice -n 10 go build -trimpath -ldflags "-s -w" -o "$out/controller.tmp" \
  github.com/Azure/azure-service-operator/v2/cmd/controller
mv "$out/controller.tmp" "$out/controller"
echo "$sources" >"$out/sources"
echo "operator-controller build: done in $(( $(date +%s) - start ))s" >&2
echo "$out/controller"
