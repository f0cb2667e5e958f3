#!/usr/bin/env bash
# The last part of `npm run demo`: ASO v2.20.0's own controller on a plane of its own, against the ARM
# emulator. adopt-check predicts what the operator will do with examples/operator/resource-groups.yaml, the
# file is applied, status shows the operator's own conditions, and the emulator's request log shows what the
# operator really did. Runs only when the operator's build is cached (a cold build takes about an hour) and
# the real v2.20.0 CRDs are in the shared data; otherwise skipped with one line.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
export PATH="$PWD/bin:$PATH"
subscription=5eed0002-0000-4000-8000-0000000a5020
echo "== the real operator: ASO v2.20.0's controller, against the ARM emulator"
set +e
exports=$(node test/fixtures/operator-controller-cli.ts up --cached-only --seed examples/operator/arm-seed.yaml \
  --subscription "$subscription")
code=$?
set -e
# 4: the operator is not built here, or the real CRDs are not (a lone clone); up said which in one line.
[ "$code" = 4 ] && exit 0
[ "$code" = 0 ] || exit "$code"
eval "$exports"
manifest=examples/operator/resource-groups.yaml
echo "== kubectl aso adopt-check -f $manifest   (before applying)"
kubectl aso adopt-check -f "$manifest" || true
echo
echo "== kubectl apply -f $manifest, then wait for the operator"
kubectl apply -f "$manifest" >/dev/null
for rg in rg-demo-new rg-demo-shared rg-demo-legacy rg-demo-audit; do
  kubectl wait --for=condition=Ready "resourcegroups.resources.azure.com/$rg" -n demo-operator --timeout=180s >/dev/null
done
# The one the operator reports missing never turns Ready: wait for its condition's reason instead.
kubectl wait --for=jsonpath='{.status.conditions[0].reason}'=AzureResourceNotFound \
  resourcegroups.resources.azure.com/rg-demo-gone -n demo-operator --timeout=180s >/dev/null || true
echo "== kubectl aso status -n demo-operator   (the operator's own conditions)"
kubectl aso status -n demo-operator || true
echo
# requests NAME...: what the operator asked ARM about each resource group (polls of its operations aside)
requests() {
  for rg in "$@"; do
    printf '%-16s %s\n' "$rg" "$(grep -i "/resourceGroups/$rg?" "$ARM_EMULATOR_REQUEST_LOG" |
      awk '{print $1, $NF}' | uniq -c | awk '{printf "%s %s x%s, ", $2, $3, $1}' | sed 's/, $//')"
  done
}
echo "== the emulator's request log: what the operator did in Azure"
requests rg-demo-new rg-demo-shared rg-demo-legacy rg-demo-audit rg-demo-gone
echo
# The resource groups only: this plane has no controller manager to finalize a namespace.
echo "== kubectl delete resourcegroups --all -n demo-operator"
kubectl delete resourcegroups.resources.azure.com --all -n demo-operator --timeout=180s >/dev/null
echo "DELETE requests ARM received (only the groups adopt-check said ASO manages):"
grep -i "^DELETE .*/resourceGroups/rg-demo-" "$ARM_EMULATOR_REQUEST_LOG" | awk '{print $2, $NF}' | sed 's/?.* / /' || echo "none"
echo "The operator's plane is still running (export KUBECONFIG=$KUBECONFIG); stop it with:  npm run cluster:down"
