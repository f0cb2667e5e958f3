import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryOf, type GroupShapes, kindsOf } from '../../src/testing/shape-arbitrary.ts';

/**
 * Transitional: the data-driven arbitraries draw, for a fixed seed, exactly the objects the emitted
 * arbitraries.ts did (same combinators, key order and options), for every package and resource kind.
 */
const generated = join(import.meta.dirname, '..', '..', 'generated');
const groups = readdirSync(generated, { withFileTypes: true })
  .filter((d) => d.isDirectory() && readdirSync(join(generated, d.name)).includes('shapes.ts'))
  .map((d) => d.name);
const samples = 200;

describe('shapes.ts arbitraries equal the emitted arbitraries.ts', () => {
  for (const group of groups) {
    it(`${group}: every package and kind draws the same ${samples} objects`, async () => {
      const { shapes } = (await import(join(generated, group, 'shapes.ts'))) as { shapes: GroupShapes };
      let compared = 0;
      for (const version of Object.keys(shapes.packages)) {
        const old = (await import(join(generated, group, version, 'arbitraries.ts'))) as Record<
          string,
          () => fc.Arbitrary<unknown>
        >;
        for (const kind of kindsOf(shapes, version)) {
          const emitted = old[kind];
          expect(emitted, `${version} ${kind}`).toBeDefined();
          for (const seed of [1, 42]) {
            const a = fc.sample((emitted as () => fc.Arbitrary<unknown>)(), { seed, numRuns: samples });
            const b = fc.sample(arbitraryOf(shapes, version, kind), { seed, numRuns: samples });
            expect(JSON.stringify(b), `${group} ${version} ${kind} seed ${seed}`).toBe(JSON.stringify(a));
            compared += samples;
          }
        }
      }
      console.log(`${group}: ${compared} objects identical`);
      expect(compared).toBeGreaterThan(0);
    }, 300_000);
  }
});
