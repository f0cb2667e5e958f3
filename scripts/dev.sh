#!/usr/bin/env bash
# The entry behind `npm test` and `npm run demo`: works from a fresh clone on a fresh machine by getting a
# new enough Node and the dependencies first, then running the step asked for.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund >&2
fi
case "${1:-}" in
  test)
    shift
    npm run build --silent >&2
    exec npx vitest run "$@"
    ;;
  demo)
    exec bash scripts/demo.sh
    ;;
  cluster-up)
    shift
    if [ "${1:-}" = --operator ]; then
      shift
      exec node test/fixtures/operator-controller-cli.ts up "$@"
    fi
    exec node test/control-plane/cli.ts up
    ;;
  cluster-down)
    node test/fixtures/operator-controller-cli.ts down
    exec node test/control-plane/cli.ts down
    ;;
  *)
    echo "usage: scripts/dev.sh test|demo|cluster-up|cluster-down" >&2
    exit 2
    ;;
esac
