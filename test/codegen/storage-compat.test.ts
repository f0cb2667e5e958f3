import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GroupPlans } from '../../src/lib/conversion/plan-table.ts';
import { operatorCompatUses } from '../fixtures/operator-compat.ts';
import { operatorGoModule } from '../fixtures/operator-go-module.ts';

const goModule = operatorGoModule('test/codegen/storage-compat.test.ts');
const generated = join(import.meta.dirname, '../../generated');

/** Where the operator's storage packages convert a value into a compat type for the bag, or out of one. */
function operatorCompatConversions(moduleDir: string): string[] {
  const uses = operatorCompatUses(moduleDir).map((u) => `${u.group}/${u.version}/${u.type} ${u.how}`);
  return [...new Set(uses)].sort();
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
