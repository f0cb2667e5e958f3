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

# --- kubectl aso status: sample ASO resources in three namespaces, in every state -------------------------
# Kinds of this project's generated CRDs, which the plane applies with the conversion webhook (objects are
# written at older API versions and stored at the hub), and a small CRD of an ASO group this project never
# generated; statuses are written through the status subresource, as the operator writes them.
kubectl apply -f - >/dev/null <<'YAML'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: vaults.keyvault.demo.azure.com}
spec:
  group: keyvault.demo.azure.com
  scope: Namespaced
  names: {plural: vaults, singular: vault, kind: Vault, listKind: VaultList, shortNames: [kv]}
  versions:
    - name: v1api20230701
      served: true
      storage: true
      subresources: {status: {}}
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
YAML
kubectl wait --for=condition=Established crd/vaults.keyvault.demo.azure.com >/dev/null
for ns in demo-platform demo-web demo-data; do
  kubectl create namespace "$ns" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
done

# resource NAMESPACE KIND APIVERSION NAME [SPEC-JSON]: create (or update) an object
resource() {
  local spec="${5:-}"
  [ -n "$spec" ] || spec='{}'
  echo "{\"apiVersion\":\"$3\",\"kind\":\"$2\",\"metadata\":{\"name\":\"$4\",\"namespace\":\"$1\"},\"spec\":$spec}" |
    kubectl apply -f - >/dev/null
}
# ready NAMESPACE RESOURCE NAME STATUS SEVERITY REASON [MESSAGE] [MINUTES-AGO]: write the Ready condition
ready() {
  local when
  when=$(date -u -d "-${8:-5} minutes" +%Y-%m-%dT%H:%M:%SZ)
  kubectl patch "$2" "$3" -n "$1" --subresource=status --type=merge -p \
    "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"$4\",\"severity\":\"$5\",\"reason\":\"$6\",\"message\":\"${7:-}\",\"observedGeneration\":1,\"lastTransitionTime\":\"$when\"}]}}" >/dev/null
}

kv=keyvault.demo.azure.com/v1api20230701
resource demo-platform Vault $kv kv-platform
ready demo-platform vaults.keyvault.demo.azure.com kv-platform False Info Reconciling "The resource is in the process of being reconciled by the operator" 1
resource demo-web Vault $kv kv-web
ready demo-web vaults.keyvault.demo.azure.com kv-web False Error AuthorizationFailed "The client 'aso-identity' does not have authorization to perform action 'Microsoft.KeyVault/vaults/write' over scope '/subscriptions/0000/resourceGroups/rg-web'" 42
resource demo-web Vault $kv kv-web-canary   # no Ready condition yet: Unknown
rg=resources.azure.com/v1api20200601
pg=dbforpostgresql.azure.com/v1api20221201
resource demo-platform ResourceGroup $rg rg-shared '{"location":"westus2"}'
ready demo-platform resourcegroups.resources.azure.com rg-shared True "" Succeeded "" 600
resource demo-platform ResourceGroup $rg rg-legacy '{"location":"westus2"}'
ready demo-platform resourcegroups.resources.azure.com rg-legacy True "" Succeeded "" 3000
# a spec change the operator has not looked at yet: the Ready condition is stale
kubectl patch resourcegroups.resources.azure.com rg-legacy -n demo-platform --type=merge -p '{"spec":{"tags":{"owner":"platform"}}}' >/dev/null
resource demo-web ResourceGroup $rg rg-web '{"location":"westus2"}'
ready demo-web resourcegroups.resources.azure.com rg-web True "" Succeeded "" 90
resource demo-data FlexibleServersDatabase $pg orders '{"owner":{"name":"pg-main"}}'
ready demo-data flexibleserversdatabases.dbforpostgresql.azure.com orders False Warning WaitingForOwner "Owner \\\"pg-main\\\" cannot be found. Progress is blocked until the owner is created." 12
resource demo-data FlexibleServersDatabase $pg reports '{"owner":{"name":"pg-main"}}'
kubectl patch flexibleserversdatabases.dbforpostgresql.azure.com reports -n demo-data --type=merge -p '{"metadata":{"finalizers":["serviceoperator.azure.com/finalizer"]}}' >/dev/null
ready demo-data flexibleserversdatabases.dbforpostgresql.azure.com reports False Info Deleting "Deleting the resource in Azure" 2
kubectl delete flexibleserversdatabases.dbforpostgresql.azure.com reports -n demo-data --wait=false >/dev/null
resource demo-data FlexibleServersFirewallRule $pg office '{"owner":{"name":"pg-main"},"startIpAddress":"10.0.0.1","endIpAddress":"10.0.0.9"}'
ready demo-data flexibleserversfirewallrules.dbforpostgresql.azure.com office True "" Succeeded "" 300
resource demo-data FlexibleServersFirewallRule $pg anywhere '{"owner":{"name":"pg-main"},"startIpAddress":"0.0.0.0","endIpAddress":"255.255.255.255"}'
ready demo-data flexibleserversfirewallrules.dbforpostgresql.azure.com anywhere False Error InvalidParameter "Firewall rule range 0.0.0.0-255.255.255.255 is not allowed" 20

echo "== kubectl aso status -A"
kubectl aso status -A || true
echo
echo "== kubectl aso status -A --not-ready --sort state --fail-on error   (exit code for CI)"
kubectl aso status -A --not-ready --sort state --fail-on error && echo "exit 0" || echo "exit $?"
echo
# --- kubectl aso adopt-check: before applying examples/adopt-check/db.yaml ------------------------------
# A fresh ARM emulator (its own state folder, so a developer's `arm:up` is left alone) holds what
# arm-seed.yaml lists; the namespace's aso-credential points the operator's credential at it, as a real
# one points at Azure. The storage account is already in the cluster with ASO's resource-id: already managed.
export ARM_EMULATOR_DIR="$PWD/.local/arm-emulator-demo"
node test/fixtures/arm-emulator/cli.ts down 2>/dev/null || true
eval "$(node test/fixtures/arm-emulator/cli.ts up --seed examples/adopt-check/arm-seed.yaml)"
demo_sub=5eed0001-0000-4000-8000-00000000de30
kubectl create namespace demo-adopt --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl create secret generic aso-credential -n demo-adopt --dry-run=client -o yaml \
  --from-literal=AZURE_SUBSCRIPTION_ID="$demo_sub" --from-literal=AZURE_TENANT_ID="$AZURE_TENANT_ID" \
  --from-literal=AZURE_CLIENT_ID="$AZURE_CLIENT_ID" --from-literal=AZURE_CLIENT_SECRET="$AZURE_CLIENT_SECRET" \
  --from-literal=AZURE_AUTHORITY_HOST="$AZURE_AUTHORITY_HOST" \
  --from-literal=AZURE_RESOURCE_MANAGER_ENDPOINT="$AZURE_RESOURCE_MANAGER_ENDPOINT" \
  --from-literal=AZURE_RESOURCE_MANAGER_AUDIENCE="$AZURE_RESOURCE_MANAGER_AUDIENCE" | kubectl apply -f - >/dev/null
kubectl apply -f - >/dev/null <<YAML
apiVersion: storage.azure.com/v1api20230101
kind: StorageAccount
metadata:
  name: stordersdata
  namespace: demo-adopt
  annotations:
    serviceoperator.azure.com/resource-id: /subscriptions/$demo_sub/resourceGroups/rg-orders/providers/Microsoft.Storage/storageAccounts/stordersdata
spec: {owner: {name: rg-orders}, location: westus2, kind: StorageV2, sku: {name: Standard_LRS}}
YAML
echo "== kubectl aso adopt-check -f examples/adopt-check/db.yaml"
kubectl aso adopt-check -f examples/adopt-check/db.yaml || true
echo
echo "== kubectl aso adopt-check -f examples/adopt-check/db.yaml -o wide   (ARM IDs, reasons, what-if)"
kubectl aso adopt-check -f examples/adopt-check/db.yaml -o wide || true
echo
echo "== kubectl aso adopt-check -f examples/adopt-check/db.yaml --fail-on delete-risk   (exit code for CI)"
kubectl aso adopt-check -f examples/adopt-check/db.yaml --fail-on delete-risk >/dev/null && echo "exit 0" || echo "exit $?"
echo "Only GETs reached the ARM emulator:"
grep '/subscriptions/' "$ARM_EMULATOR_REQUEST_LOG" | cut -d' ' -f1 | sort | uniq -c
echo "The ARM emulator is still running; stop it with:  ARM_EMULATOR_DIR=$ARM_EMULATOR_DIR npm run arm:down"
echo

# --- kubectl aso migrate: objects an old operator stored at a v1alpha1api storage version -----------------
# An operator of the v1alpha1api era stored ResourceGroups at its alpha storage version: the CRD's storage
# flag is moved there and objects are written. The "upgrade" moves the flag back to the hub, as installing a
# newer operator does; the objects stay stored at the alpha version until something rewrites them.
rg_crd=resourcegroups.resources.azure.com
# set_storage CRD VERSION: make VERSION the CRD's storage version (what an operator install does)
set_storage() {
  kubectl get crd "$1" -o json | node -e '
    const crd = JSON.parse(require("fs").readFileSync(0, "utf8"));
    for (const v of crd.spec.versions) v.storage = v.name === process.argv[1];
    process.stdout.write(JSON.stringify(crd));' "$2" | kubectl replace -f - >/dev/null
}
versions=$(kubectl get crd $rg_crd -o jsonpath='{range .spec.versions[*]}{.name}={.storage}{"\n"}{end}')
hub=$(grep '=true$' <<<"$versions" | cut -d= -f1)
alpha=$(grep -E '^v1alpha1api.*storage=' <<<"$versions" | head -1 | cut -d= -f1)
kubectl create namespace demo-migrate --dry-run=client -o yaml | kubectl apply -f - >/dev/null
echo "== an old operator stores ResourceGroups at $alpha"
set_storage $rg_crd "$alpha"
sleep 2 # the API server picks up the new storage version from its CRD informer
for i in 1 2 3 4 5 6; do
  resource demo-migrate ResourceGroup "resources.azure.com/${alpha%storage}" "rg-legacy-$i" '{"location":"westeurope"}'
done
echo "== the operator upgrade makes $hub the storage version again"
set_storage $rg_crd "$hub"
echo "storedVersions: $(kubectl get crd $rg_crd -o jsonpath='{.status.storedVersions}')"
echo
echo "== kubectl aso migrate --to v1api --kind $rg_crd --dry-run"
kubectl aso migrate --to v1api --kind $rg_crd --dry-run || true
echo
echo "== kubectl aso migrate --to v1api --kind $rg_crd --batch-size 4"
kubectl aso migrate --to v1api --kind $rg_crd --batch-size 4 && echo "exit 0" || echo "exit $?"
echo "storedVersions: $(kubectl get crd $rg_crd -o jsonpath='{.status.storedVersions}')"
echo

bash scripts/demo-operator.sh
echo

echo "The control plane is still running. To use it from your shell:"
echo "  export KUBECONFIG=$KUBECONFIG PATH=$PWD/bin:$(dirname "$(command -v node)"):\$PATH"
echo "Stop it with:  npm run cluster:down"
