import { registry } from '../generated/registry.ts';
import type { KubeObject } from '../src/lib/conversion/resource.ts';
import { loadSamples } from '../test/differential/samples.ts';
import { sharedData } from '../test/fixtures/shared-data.ts';
import { timePerRound } from './convert-kinds.ts';

/**
 * One conversion of each of the operator's 910 sample manifests (every kind at every version it serves)
 * against `structuredClone` of the same object: issue 23's budget, a conversion at least 0.8x as fast as the
 * clone, on the objects users write. Each sample is converted one step, to its own storage version, as
 * copies of itself (so that the figures are per object, not per cache line). Returns whether the worst
 * sample meets the target, or undefined without the shared samples.
 */
export function measureSamples(): boolean | undefined {
  const samples = sharedData('aso-samples/v2.20.0', 'bench/convert-samples.ts');
  if (!samples.present) return undefined;
  const copies = Number(process.env.BENCH_SAMPLE_COPIES ?? 200);
  const rounds = Number(process.env.BENCH_SAMPLE_ROUNDS ?? 20);
  const ratios: { ratio: number; what: string }[] = [];
  for (const { file, object } of loadSamples(samples.path)) {
    const [group = '', version = ''] = object.apiVersion.split('/');
    const step = registry.groups[group]?.[object.kind]?.versions[version]?.up;
    if (!step) continue;
    const objects: KubeObject[] = Array.from({ length: copies }, () => structuredClone(object));
    const clone = timePerRound(objects, rounds, (o) => structuredClone(o));
    const one = timePerRound(objects, rounds, (o) => step.convert(o));
    ratios.push({
      ratio: clone / one,
      what: `${group} ${object.kind} ${version} (${file.split('/').pop()})`,
    });
  }
  ratios.sort((a, b) => a.ratio - b.ratio);
  const at = (q: number) => ratios[Math.min(ratios.length - 1, Math.floor(q * ratios.length))]?.ratio ?? 0;
  process.stdout.write(
    `\nthe operator's samples: ${ratios.length} objects, each as ${copies} copies, ${rounds} rounds, one conversion vs structuredClone\n`,
  );
  process.stdout.write('slowest ten (ratio clone time / conversion time; target >= 0.80):\n');
  for (const { ratio, what } of ratios.slice(0, 10))
    process.stdout.write(`  ${`${ratio.toFixed(2)}x`.padStart(7)} ${what}\n`);
  process.stdout.write(`median ${at(0.5).toFixed(2)}x, 10th percentile ${at(0.1).toFixed(2)}x\n`);
  const worst = ratios[0]?.ratio ?? 0;
  const ok = ratios.length > 0 && worst >= 0.8;
  process.stdout.write(`worst sample ratio: ${worst.toFixed(2)}x (target >= 0.80)${ok ? '' : ' MISSED'}\n`);
  return ok;
}
