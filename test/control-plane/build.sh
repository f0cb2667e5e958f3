#!/usr/bin/env bash
# Builds kube-apiserver and etcd from this wrapper module into a cache keyed by version.
# Prints the directory holding both binaries. Reuses a finished build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kube_version=$(awk '$1=="k8s.io/kubernetes" && $2 ~ /^v/ {print $2; exit}' "$here/go.mod")
etcd_version=$(awk '$1=="go.etcd.io/etcd/server/v3" && $2 ~ /^v/ {print $2; exit}' "$here/go.mod")
cache_root=${KUBECTL_ASO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-aso}
out="$cache_root/control-plane/kube-$kube_version-etcd-$etcd_version"
if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ]; then
  echo "$out"
  exit 0
fi
command -v go >/dev/null || { echo "control-plane build: go is not on PATH" >&2; exit 3; }
# Two test runs may start on a fresh machine at once: one builds, the other waits and reuses its result.
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ]; then
  echo "$out"
  exit 0
fi
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cd "$here"
start=$(date +%s)
ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$kube_version -X k8s.io/component-base/version.gitTreeState=clean"
echo "control-plane build: etcd $etcd_version" >&2
CGO_ENABLED=0 go build -trimpath -o "$out.tmp/etcd" go.etcd.io/etcd/server/v3
echo "control-plane build: kube-apiserver $kube_version" >&2
CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$out.tmp/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
rm -rf "$out"
mv "$out.tmp" "$out"
echo "control-plane build: done in $(( $(date +%s) - start ))s" >&2
echo "$out"
