#!/usr/bin/env bash
# Builds Azure Service Operator's controller (cmd/controller at the version this module requires) into a cache
# keyed by that version and its inputs' hash, with its webhook server bound to loopback. Prints the binary's path. Reuses a finished build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
aso_version=$(awk '$1=="github.com/Azure/azure-service-operator/v2" && $2 ~ /^v/ {print $2; exit}' "$here/go.mod")
cache_root=${KUBECTL_ASO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-aso}
# go.mod/go.sum and this script (which patches one line, below) are the whole input (the module has no Go
# files), so their hash decides whether a build is stale; it is in the path, so that checkouts building
# different inputs keep one binary each instead of replacing each other's.
sources=$(cd "$here" && cat go.mod go.sum build.sh | sha256sum | cut -c1-16)
out="$cache_root/operator-controller/$aso_version-$sources"
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
# ASO gives its webhook server a port and no host (webhook.Options in cmd/controller/app/setup.go), so it
# listens on every interface, and no flag changes that. The tests' copy serves conversions and admission on
# loopback only (the API server that calls it is on loopback too): it is built against a copy of
# controller-runtime whose webhook server defaults an unset host to 127.0.0.1, through a go.mod copy that
# replaces the module (Go refuses overlays of files in the module cache).
runtime_dir=$(go list -m -f '{{.Dir}}' sigs.k8s.io/controller-runtime)
rm -rf "$out/controller-runtime"
cp -r "$runtime_dir" "$out/controller-runtime"
chmod -R u+w "$out/controller-runtime"
server="$out/controller-runtime/pkg/webhook/server.go"
sed -i 's/^func (o \*Options) setDefaults() {$/&\n\tif o.Host == "" {\n\t\to.Host = "127.0.0.1"\n\t}/' "$server"
grep -q 'o.Host = "127.0.0.1"' "$server" || {
  echo "operator-controller build: $server has no Options.setDefaults to bind to loopback" >&2
  exit 3
}
cp go.mod "$out/go.mod"
cp go.sum "$out/go.sum"
echo "replace sigs.k8s.io/controller-runtime => $out/controller-runtime" >>"$out/go.mod"
# nice: the build competes with the test run that asked for it on small machines.
CGO_ENABLED=0 nice -n 10 go build -modfile "$out/go.mod" -trimpath -ldflags "-s -w" \
  -o "$out/controller.tmp" github.com/Azure/azure-service-operator/v2/cmd/controller
mv "$out/controller.tmp" "$out/controller"
echo "$sources" >"$out/sources"
echo "operator-controller build: done in $(( $(date +%s) - start ))s" >&2
echo "$out/controller"
