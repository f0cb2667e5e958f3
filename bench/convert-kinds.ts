import fc from 'fast-check';
import { registry } from '../generated/registry.ts';
import type { KubeObject } from '../src/lib/conversion/resource.ts';
import { arbitraryOf, type DrawOptions, type GroupShapes, kindsOf } from '../src/testing/shape-arbitrary.ts';

/** The worst one-step ratios of {@link measureEveryKind}, for each way of drawing the objects. */
export interface KindRatios {
  /** Random objects as the API server stores them: no property the CRD does not define. */
  readonly stored: number;
  /** Random objects with unknown extras at every level, as a manifest file may hold them. */
  readonly extras: number;
}

/**
 * One conversion of every kind against `structuredClone` of the same objects (issue 23's budget: a
 * conversion at least 0.8x as fast as the clone), on random objects drawn two ways: as the API server stores
 * them (it prunes what the CRD's structural schema does not define, so a webhook or `migrate` never sees an
 * unknown property), which is held to the budget; and with unknown extras at every level, as a manifest
 * file may hold them, which a conversion writes into bags as JSON text where a clone copies them as they
 * are: reported as measured. For each kind, its oldest and newest API version, each converted one step,
 * into its own storage version, which is the conversion the operator's webhook and `migrate` run most;
 * objects are drawn from the group's shapes (generated/<group>/shapes.ts) with a fixed seed, so every run
 * converts the same ones. The path to the hub (stored objects) is printed beside it, for information.
 */
export async function measureEveryKind(): Promise<KindRatios> {
  const seed = Number(process.env.BENCH_SEED ?? 23);
  const count = Number(process.env.BENCH_KIND_OBJECTS ?? 200);
  const rounds = Number(process.env.BENCH_KIND_ROUNDS ?? 50);
  process.stdout.write(
    `\nevery kind: ${count} objects per version (seed ${seed}), ${rounds} rounds, one conversion vs structuredClone\n`,
  );
  process.stdout.write(
    `${'kind'.padEnd(62)} ${'stored'.padStart(9)} ${'extras'.padStart(9)} ${'to hub'.padStart(9)}  (ratio clone time / conversion time)\n`,
  );
  let stored = Number.POSITIVE_INFINITY;
  let extras = Number.POSITIVE_INFINITY;
  for (const [group, kinds] of Object.entries(registry.groups)) {
    const short = group.replace(/\.azure\.com$/, '');
    for (const [kind, entry] of Object.entries(kinds)) {
      const api = Object.keys(entry.versions).filter((v) => entry.versions[v]?.storage === false);
      for (const version of [...new Set([api[0], api[api.length - 1]])]) {
        if (version === undefined) continue;
        const step = entry.versions[version]?.up;
        if (!step) continue;
        const { shapes } = (await import(`../generated/${short}/shapes.ts`)) as { shapes: GroupShapes };
        if (!kindsOf(shapes, version).includes(kind)) continue;
        const ratioOf = (options: DrawOptions) => {
          const objects: KubeObject[] = fc.sample(arbitraryOf(shapes, version, kind, options), {
            seed,
            numRuns: count,
          });
          const clone = timePerRound(objects, rounds, (o) => structuredClone(o));
          const one = timePerRound(objects, rounds, (o) => step.convert(o));
          const toHub = timePerRound(objects, rounds, (o) => hubPath(o, entry.versions, version));
          return { one: clone / one, toHub: clone / toHub };
        };
        const asStored = ratioOf({ extras: false });
        const withExtras = ratioOf({ extras: true });
        stored = Math.min(stored, asStored.one);
        extras = Math.min(extras, withExtras.one);
        process.stdout.write(
          `${`${group} ${kind} ${version}`.padEnd(62)} ${`${asStored.one.toFixed(2)}x`.padStart(9)} ${`${withExtras.one.toFixed(2)}x`.padStart(9)} ${`${asStored.toHub.toFixed(2)}x`.padStart(9)}\n`,
        );
      }
    }
  }
  process.stdout.write(
    `worst one-step ratio, stored objects: ${stored.toFixed(2)}x (target >= 0.80)${stored >= 0.8 ? '' : ' MISSED'}\n`,
  );
  process.stdout.write(`worst one-step ratio, objects with extras: ${extras.toFixed(2)}x (reported)\n`);
  return { stored, extras };
}

type Versions = (typeof registry.groups)[string][string]['versions'];

function hubPath(object: KubeObject, versions: Versions, from: string): KubeObject {
  let current = object;
  let at: string | undefined = from;
  for (;;) {
    const step: { to: string; convert: (o: KubeObject) => KubeObject } | undefined =
      at === undefined ? undefined : versions[at]?.up;
    if (!step) return current;
    current = step.convert(current);
    at = step.to;
  }
}

/** The best of `rounds` timings of one pass over `objects`, after a warm-up pass, in nanoseconds. */
export function timePerRound(
  objects: readonly KubeObject[],
  rounds: number,
  body: (o: KubeObject) => unknown,
): number {
  let sink = 0;
  for (let r = 0; r < 5; r++) for (const o of objects) sink ^= body(o) ? 1 : 0;
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (const o of objects) sink ^= body(o) ? 1 : 0;
    best = Math.min(best, Number(process.hrtime.bigint() - start));
  }
  return sink === 2 ? best + 1 : best;
}
