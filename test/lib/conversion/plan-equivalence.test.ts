/**
 * Transitional proof (issue 23, step 1): every conversion compiled from the group plans behaves exactly as
 * the per-function TypeScript the generator emitted before, on random objects of every version of every
 * kind (valid, corrupted, and with leftovers kept). Removed with the old emitter once this has passed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registry } from '../../../generated/registry.ts';
import { keepingLeftovers } from '../../../src/lib/conversion/property-bag.ts';
import type { KubeObject, ResourceConverter } from '../../../src/lib/conversion/resource.ts';

const runs = Number(process.env.ASO_EQ_RUNS ?? 60);
const seed = Number(process.env.ASO_EQ_SEED ?? Date.now() % 1_000_000);
process.stdout.write(
  `plan equivalence: seed ${seed}, ${runs} runs per conversion (ASO_EQ_SEED, ASO_EQ_RUNS)\n`,
);

type Outcome = { ok: string } | { error: string };

function outcome(convert: ResourceConverter, object: KubeObject, leftovers: boolean): Outcome {
  try {
    const out = leftovers ? keepingLeftovers(() => convert(object)) : convert(object);
    return { ok: JSON.stringify(out) };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

function leafPaths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value))
      leafPaths(v, [...at, Array.isArray(value) ? Number(k) : k], out);
  } else out.push(at);
  return out;
}

function corrupt(object: KubeObject, pick: number, replacement: unknown): KubeObject {
  const copy = structuredClone(object);
  const paths = leafPaths({ spec: copy.spec, status: copy.status });
  const path = paths[pick % Math.max(1, paths.length)];
  if (!path || path.length < 2) return copy;
  let at: Record<string | number, unknown> = copy as Record<string, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string;
  // An enum value in another spelling is what the operator's ToEnum rewrites: flip the case of a string.
  const current = at[last];
  at[last] = replacement === 'flip-case' && typeof current === 'string' ? flipCase(current) : replacement;
  return copy;
}

function flipCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

interface Case {
  readonly group: string;
  readonly kind: string;
  readonly from: string;
  readonly fn: string;
  readonly pkg: string;
  readonly convert: ResourceConverter;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const [group, kinds] of Object.entries(registry.groups)) {
    for (const [kind, entry] of Object.entries(kinds)) {
      for (const [version, v] of Object.entries(entry.versions)) {
        if (v.up) {
          const fn = v.storage ? `${kind}_to_${v.up.to}` : `${kind}_toStorage`;
          out.push({ group, kind, from: version, fn, pkg: version, convert: v.up.convert });
        }
        if (v.down) {
          const fn = v.storage ? `${kind}_from_${v.down.from}` : `${kind}_fromStorage`;
          out.push({ group, kind, from: v.down.from, fn, pkg: version, convert: v.down.convert });
        }
      }
    }
  }
  return out;
}

describe('conversions compiled from plans equal the emitted functions', () => {
  for (const c of cases()) {
    const short = c.group.split('.')[0] as string;
    it(`${c.group} ${c.kind} ${c.pkg}.${c.fn}`, async () => {
      const old = (await import(`../../../generated/${short}/${c.pkg}/conversions.ts`)) as Record<
        string,
        ResourceConverter
      >;
      const arbitraries = (await import(`../../../generated/${short}/${c.from}/arbitraries.ts`)) as Record<
        string,
        () => fc.Arbitrary<KubeObject>
      >;
      const before = old[c.fn];
      const arbitrary = arbitraries[c.kind];
      expect(before, c.fn).toBeTypeOf('function');
      expect(arbitrary, c.kind).toBeTypeOf('function');
      if (!before || !arbitrary) return;
      const wrong = fc.constantFrom<unknown>(
        'flip-case',
        'flip-case',
        'flip-case',
        42,
        'x',
        null,
        [],
        {},
        true,
        1.5,
        [1],
        { a: 1 },
      );
      fc.assert(
        fc.property(
          arbitrary(),
          fc.nat(),
          wrong,
          fc.boolean(),
          fc.boolean(),
          (object, pick, bad, broken, left) => {
            const input = broken ? corrupt(object, pick, bad) : object;
            expect(outcome(c.convert, input, left)).toEqual(outcome(before, input, left));
          },
        ),
        { numRuns: runs, seed },
      );
    });
  }
});
