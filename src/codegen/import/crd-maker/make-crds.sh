#!/usr/bin/env bash
# Makes the CRDs of one API group of Azure Service Operator v2 from the operator's Go module, as the
# operator's build does, and prints the folder holding them (one YAML per CRD).
#
#   make-crds.sh <aso-version> <group> [<outdir>]
#
# The crd-maker tool is built once per source hash into $cache_root/crd-maker/<hash>/, and each group's
# CRDs are kept in $cache_root/crds/<aso-version>/<group>/, stamped with the tool's hash so that an edit
# to the tool remakes them. With <outdir>, the CRDs are also copied there and <outdir> is printed.
#
# Exit codes: 2 usage, 3 go is not on PATH, 4 the tool does not build, 5 the operator's module cannot be
# downloaded, 6 making the CRDs failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  echo "usage: make-crds.sh <aso-version> <group> [<outdir>]" >&2
  exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
aso_version=$1
group=$2
outdir=${3:-}
[[ $aso_version =~ ^v2\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] || { echo "make-crds: $aso_version is not an ASO v2 version (v2.20.0)" >&2; exit 2; }
[[ $group =~ ^[a-z][a-z0-9]*(\.[a-z][a-z0-9]*)*$ ]] || { echo "make-crds: $group is not an API group folder (resources, network.frontdoor)" >&2; exit 2; }

cache_root=${KUBECTL_ASO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-aso}
# The sources' hash names the build, so an edit to the Go files builds anew instead of reusing a stale binary.
sources=$(cd "$here" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)
tool_dir="$cache_root/crd-maker/$sources"
tool="$tool_dir/crd-maker"
group_dir="$cache_root/crds/$aso_version/$group"

deliver() {
  if [ -n "$outdir" ]; then
    mkdir -p "$outdir"
    cp "$group_dir"/*.yaml "$outdir"/
    echo "$outdir"
  else
    echo "$group_dir"
  fi
  exit 0
}
made() { [ "$(cat "$group_dir/.made-by" 2>/dev/null)" = "$sources" ]; }
made && deliver

command -v go >/dev/null || { echo "make-crds: go is not on PATH" >&2; exit 3; }

# Two runs may start on a fresh machine at once: one builds, the other waits and reuses its result.
mkdir -p "$tool_dir"
if [ ! -x "$tool" ]; then
  exec 9>"$tool_dir.lock"
  flock 9
  if [ ! -x "$tool" ]; then
    start=$(date +%s)
    echo "make-crds: building crd-maker (a cold build takes about a minute)" >&2
    (cd "$here" && GOWORK=off CGO_ENABLED=0 go build -trimpath -o "$tool.tmp" .) || { echo "make-crds: crd-maker does not build" >&2; exit 4; }
    mv "$tool.tmp" "$tool"
    echo "make-crds: crd-maker built in $(($(date +%s) - start))s" >&2
  fi
  exec 9>&-
fi

mkdir -p "$(dirname "$group_dir")"
exec 8>"$group_dir.lock"
flock 8
made && deliver

# Outside any module, so the download never touches this tool's go.mod; prints the module's folder.
module_dir=$(cd / && GOWORK=off GOFLAGS=-mod=mod go mod download -json "github.com/Azure/azure-service-operator/v2@$aso_version" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p') || true
[ -n "$module_dir" ] && [ -d "$module_dir/api" ] || { echo "make-crds: cannot download github.com/Azure/azure-service-operator/v2@$aso_version" >&2; exit 5; }

start=$(date +%s)
partial="$group_dir.partial"
rm -rf "$partial"
"$tool" -module "$module_dir" -group "$group" -version "$aso_version" -out "$partial" || { rm -rf "$partial"; exit 6; }
echo "$sources" >"$partial/.made-by"
rm -rf "$group_dir"
mv "$partial" "$group_dir"
echo "make-crds: $aso_version $group made in $(($(date +%s) - start))s" >&2
deliver
