import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sea from 'node:sea';
import { compileFunction } from 'node:vm';

/**
 * Loads one of the executable's lazy bundles (the Azure libraries, the Kubernetes client): CommonJS code
 * kept out of the main script, which Node compiles on every start, and compiled here only when a command
 * imports it (adopt-check, an exec-plugin kubeconfig). In the single executable it is a SEA asset; when the
 * bundle runs under plain Node (while building and debugging), a file beside it.
 */
const loaded = new Map<string, Record<string, unknown>>();

function sourceOf(name: string): string {
  if (sea.isSea()) return sea.getAsset(name, 'utf8');
  return readFileSync(join(dirname(process.argv[1] ?? '.'), name), 'utf8');
}

/** The exports of the lazy bundle `name`, evaluated on first use and shared by every later one. */
export function lazyBundle(name: string): Record<string, unknown> {
  const known = loaded.get(name);
  if (known) return known;
  const wrapper = compileFunction(
    sourceOf(name),
    ['exports', 'require', 'module', '__filename', '__dirname'],
    {
      filename: `kubectl-aso/${name}`,
    },
  );
  const module: { exports: Record<string, unknown> } = { exports: {} };
  // The bundle holds all it needs but Node's built-in modules, which this require provides.
  wrapper(module.exports, createRequire(process.execPath), module, `kubectl-aso/${name}`, 'kubectl-aso');
  loaded.set(name, module.exports);
  return module.exports;
}
