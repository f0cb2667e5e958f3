import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { GroupPlans } from '../../src/lib/conversion/plan-table.ts';
import { operatorGoModule } from '../fixtures/operator-go-module.ts';

const goModule = operatorGoModule('test/codegen/storage-compat.test.ts');
const earlierModule = operatorGoModule('test/codegen/storage-compat.test.ts (removed versions)', 'v2.18.0');
const generated = join(import.meta.dirname, '../../generated');

/**
 * Where the operator's storage packages convert a value into a compat type for the bag, or out of one
 * (`var x compat.T` in a storage version's conversion; v2.18.0 imports the package as `v20240901sc`):
 * `group/version/T stash|recall`, for every group, or for `groups` only.
 */
function operatorCompatConversions(moduleDir: string, groups?: ReadonlySet<string>): string[] {
  const api = join(moduleDir, 'api');
  const found = new Set<string>();
  for (const entry of readdirSync(api, { withFileTypes: true })) {
    if (!entry.isDirectory() || (groups && !groups.has(entry.name))) continue;
    const group = entry.name;
    const groupDir = join(api, group);
    for (const version of readdirSync(groupDir, { withFileTypes: true })) {
      const storage = join(groupDir, version.name, 'storage');
      if (!version.isDirectory() || !existsSync(join(storage, 'compat'))) continue;
      for (const file of readdirSync(storage).filter((f) => f.endsWith('_types_gen.go'))) {
        const text = readFileSync(join(storage, file), 'utf8');
        const aliases = new Set(['compat']);
        for (const m of text.matchAll(/(\w+) "[^"]+\/storage\/compat"/g)) aliases.add(m[1] as string);
        // `var pool compat.BackendPool` converts a value into the bag; `var poolFromBag ...` out of it.
        for (const m of text.matchAll(/var \w+?(FromBag)? (\w+)\.(\w+)\n/g))
          if (aliases.has(m[2] as string))
            found.add(`${group}/${version.name}/${m[3]} ${m[1] ? 'recall' : 'stash'}`);
      }
    }
  }
  return [...found].sort();
}

/** The groups where v2.18.0 has a version folder v2.20.0 removed: the core takes those from v2.18.0. */
function groupsWithRemovedVersions(earlier: string, current: string): Set<string> {
  const groups = new Set<string>();
  for (const entry of readdirSync(join(earlier, 'api'), { withFileTypes: true })) {
    if (!entry.isDirectory() || !existsSync(join(current, 'api', entry.name))) continue;
    const now = new Set(readdirSync(join(current, 'api', entry.name)));
    if (readdirSync(join(earlier, 'api', entry.name)).some((v) => /^v/.test(v) && !now.has(v)))
      groups.add(entry.name);
  }
  return groups;
}

/**
 * Our compat plans are named after the type below (AKS 2024-04-02-preview's `AgentPoolGPUProfile`); the
 * operator names its compat type after the type above (`GPUProfile`), which the type renames pair.
 */
function renamedAsTheOperatorNames(conversion: string): string {
  const derived = parse(
    readFileSync(join(import.meta.dirname, '../../schemas/operator-derived.yaml'), 'utf8'),
  ) as {
    renames?: { types?: { group: string; from: string; to: string }[] };
  };
  const [path = '', how] = conversion.split(' ');
  const [group, version, type] = path.split('/');
  const rename = derived.renames?.types?.find((r) => r.group === group && r.from === type);
  return rename ? `${group}/${version}/${rename.to} ${how}` : conversion;
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
  it.runIf(goModule.present && earlierModule.present)(
    'convert into and out of the bag in the same versions, for the same types, and nowhere else',
    async () => {
      // v2.20.0's (API Management's Backend at 2022-08-01), and v2.18.0's where the core keeps a version
      // v2.20.0 removed (AKS 2024-09-01, below which 2024-04-02-preview joins). Read, not assumed, so a new
      // one in a later release shows up here.
      const removedIn = groupsWithRemovedVersions(earlierModule.path, goModule.path);
      expect([...removedIn]).toEqual(['containerservice']);
      const operator = [
        ...new Set([
          ...operatorCompatConversions(goModule.path),
          ...operatorCompatConversions(earlierModule.path, removedIn),
        ]),
      ].sort();
      expect(operator.length).toBeGreaterThan(0);
      expect((await ourCompatConversions()).map(renamedAsTheOperatorNames).sort()).toEqual(operator);
    },
  );
});
