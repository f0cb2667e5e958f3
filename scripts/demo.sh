#!/usr/bin/env bash
# `npm run demo`: builds the plugin, starts the local control plane, and runs kubectl-aso through kubectl
# the way a user would. Leaves the plane running; `npm run cluster:down` stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
npm run build --silent >&2
eval "$(node test/control-plane/cli.ts up)"
export PATH="$PWD/bin:$PATH"
echo "== kubectl aso --help"
kubectl aso --help
echo "== kubectl aso version"
kubectl aso version
echo
echo "The control plane is still running. To use it from your shell:"
echo "  export KUBECONFIG=$KUBECONFIG PATH=$PWD/bin:$(dirname "$(command -v node)"):\$PATH"
echo "Stop it with:  npm run cluster:down"
