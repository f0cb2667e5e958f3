# Sourced by the project's scripts: makes sure a Node.js of at least 22.19 is first on PATH.
# A machine whose node is older (these ship Node 20) gets Node 24 from the npm registry, installed once
# into a cache outside the repository.
node_is_new_enough() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)' 2>/dev/null
}
if ! node_is_new_enough; then
  kubectl_aso_node="${KUBECTL_ASO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-aso}/node24"
  if [ ! -x "$kubectl_aso_node/bin/node" ]; then
    echo "installing Node 24 into $kubectl_aso_node (the machine's node is $(node --version 2>/dev/null || echo missing))" >&2
    npm install --global --prefix "$kubectl_aso_node" --no-audit --no-fund node@24 >&2
  fi
  export PATH="$kubectl_aso_node/bin:$PATH"
  if ! node_is_new_enough; then
    echo "error: could not get Node.js 22.19 or newer on PATH" >&2
    exit 1
  fi
fi
