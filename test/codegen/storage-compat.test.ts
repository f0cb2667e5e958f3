import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GroupPlans } from '../../src/lib/conversion/plan-table.ts';
import { operatorGoModule } from '../fixtures/operator-go-module.ts';

const goModule = operatorGoModule('test/codegen/storage-compat.test.ts');
const generated = join(import.meta.dirname, '../../generated');

/**
 * Where the operator's storage packages convert a value into a compat type for the bag, or out of one
 * (`var x compat.T` in a storage version's conversion): `group/version/T stash|recall`.
 */
function operatorCompatConversions(moduleDir: string): string[] {
  const api = join(moduleDir, 'api');
  const found = new Set<string>();
  for (const entry of readdirSync(api, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const group = entry.name;
    const groupDir = join(api, group);
    for (const version of readdirSync(groupDir, { withFileTypes: true })) {
      const storage = join(groupDir, version.name, 'storage');
      if (!version.isDirectory() || !existsSync(join(storage, 'compat'))) continue;
      for (const file of readdirSync(storage).filter((f) => f.endsWith('_types_gen.go'))) {
        // `var pool compat.BackendPool` converts a value into the bag; `var poolFromBag ...` out of it.
        for (const m of readFileSync(join(storage, file), 'utf8').matchAll(
          /var \w+?(FromBag)? compat\.(\w+)\n/g,
        ))
          found.add(`${group}/${version.name}/${m[2]} ${m[1] ? 'recall' : 'stash'}`);
      }
    }
  }
  return [...found].sort();
}

/** Where ours convert a value into, or out of, the shape of a version below: as above. */
async function ourCompatConversions(): Promise<string[]> {
  const found = new Set<string>();
  for (const group of readdirSync(generated)) {
    const file = join(generated, group, 'conversion-plans.ts');
    if (!existsSync(file)) continue;
    const { plans } = (await import(file)) as { plans: () => GroupPlans };
    for (const [version, pkg] of Object.entries(plans().packages))
      for (const plan of Object.values(pkg.types))
        for (const step of plan.steps) {
          if ((step[0] !== '>' && step[0] !== '<') || step.length !== 4) continue;
          const value = step[2];
          if (typeof value !== 'object' || !('obj' in value))
            throw new Error(`${group}/${version}: ${step[1]}`);
          // `BackendPool_from_v1api20240501storage` converts into the compat type `BackendPool`,
          // `BackendPool_to_v1api20240501storage` out of it.
          const type = value.obj.replace(/_(from|to)_\w+$/, '');
          const how = step[0] === '>' ? 'stash' : 'recall';
          found.add(`${group}/${version.replace(/storage$/, '')}/${type} ${how}`);
        }
  }
  return [...found].sort();
}

describe("the storage compat types of a property that skips a version, against the operator's", () => {
  it.runIf(goModule.present)(
    'convert into and out of the bag in the same versions, for the same types, and nowhere else',
    async () => {
      const operator = operatorCompatConversions(goModule.path);
      // The operator's one compat package today (API Management's Backend at 2022-08-01); the list is read,
      // not assumed, so a new one in a later release shows up here.
      expect(operator.length).toBeGreaterThan(0);
      expect(await ourCompatConversions()).toEqual(operator);
    },
  );
});
