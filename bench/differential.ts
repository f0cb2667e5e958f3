import { catalog } from '../generated/catalog.ts';
import { propertySeed } from '../src/testing/conversion-support.ts';
import { compareKind, type KindAgreement } from '../test/differential/compare-kind.ts';
import {
  compareKindRandomly,
  disagreementReport,
  figuresLine,
  type KindFigures,
  sharedKind,
} from '../test/differential/random-pairs.ts';
import { loadSamples } from '../test/differential/samples.ts';
import { operatorConversionBinaries } from '../test/fixtures/operator-conversion.ts';
import { sharedData } from '../test/fixtures/shared-data.ts';

/**
 * `npm run bench:differential [-- --all] [-- --objects N --kind K ...]`: the differential tests' comparisons
 * for every kind (`--all`, the default) or the kinds named, with more random objects per version pair
 * (default 100, which sweeps all 279 kinds in 40 minutes here; the test runs 300 for the core kinds and
 * 40 for the seeded sample of others) and every one of the operator's sample manifests of the kind. For each
 * kind it prints the random objects' agreement figures (conversions compared, agreements, the named
 * exclusions each needed) and the samples' (each sample, and each side's stored form of it, to every other
 * version both serve); then the totals, and the time convert() took against the time the operator's own
 * conversions took on the same random objects, measured in the same run (one version pair at a time, so
 * that neither side's time includes waiting for the other). Exits 1 on any unexplained disagreement,
 * listing each with the object that reproduces it.
 */
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const objects = Number(option('--objects') ?? 100);
const only = args.flatMap((arg, index) => (args[index - 1] === '--kind' ? [arg] : []));
const crds = sharedData('real-aso-crds/v2.20.0', 'bench/differential.ts');
const samplesDir = sharedData('aso-samples/v2.20.0', 'bench/differential.ts');
if (!crds.present || !samplesDir.present) process.exit(2);
const samples = loadSamples(samplesDir.path);

const binaryStart = performance.now();
await operatorConversionBinaries(
  catalog.filter((entry) => only.length === 0 || only.includes(entry.kind)).map((entry) => entry.group),
);
console.log(
  `operator-conversion binaries ready in ${((performance.now() - binaryStart) / 1000).toFixed(1)}s`,
);
console.log(
  `${objects} random objects per shared version pair, both ways round, seed ${propertySeed}; ` +
    `${samples.length} sample objects`,
);

const all: KindFigures[] = [];
const sampleFigures: KindAgreement[] = [];
let disagreements: string[] = [];
for (const entry of catalog) {
  if (only.length > 0 && !only.includes(entry.kind)) continue;
  const kind = sharedKind(entry, crds.path);
  if (kind.shared.length < 2) {
    console.log(
      `${entry.kind}: no version pair shared with the operator (shared: ${kind.shared.join(', ') || 'none'})`,
    );
    continue;
  }
  const figures = await compareKindRandomly(kind, objects, propertySeed, undefined, 1);
  all.push(figures);
  console.log(figuresLine(figures));
  disagreements = [...disagreements, ...disagreementReport(figures)];
  const versions = [...entry.versions.map((v) => v.version), ...entry.storageVersions];
  const onSamples = await compareKind({ group: entry.group, kind: entry.kind, versions }, samples, crds.path);
  sampleFigures.push(onSamples);
  console.log(
    `${entry.kind} samples: ${onSamples.agreed} of ${onSamples.compared} conversions agree ` +
      `(${onSamples.leaves} values)`,
  );
  disagreements = [...disagreements, ...onSamples.disagreements.map((d) => `${entry.kind} sample ${d}`)];
}

const total = (pick: (figures: KindFigures) => number) =>
  all.reduce((sum, figures) => sum + pick(figures), 0);
const onSamples = (pick: (figures: KindAgreement) => number) =>
  sampleFigures.reduce((sum, figures) => sum + pick(figures), 0);
console.log(
  `samples: ${onSamples((f) => f.agreed)} of ${onSamples((f) => f.compared)} conversions agree ` +
    `(${sampleFigures.filter((f) => f.compared > 0).length} kinds with samples at a shared version)`,
);
const time = (side: 'ours' | 'operator') =>
  total((figures) => figures.pairs.reduce((sum, pair) => sum + pair.time[side], 0));
const compared = total((figures) => figures.compared);
console.log(
  `random objects: ${total((figures) => figures.agreed)} of ${compared} conversions agree over ` +
    `${total((figures) => figures.pairs.length)} version pairs`,
);
console.log(
  `convert(): ${((time('ours') * 1000) / compared).toFixed(1)} us per conversion; the operator ` +
    `(one process per batch): ${((time('operator') * 1000) / compared).toFixed(1)} us; ratio ours/operator ` +
    `${(time('ours') / time('operator')).toFixed(3)}`,
);
if (disagreements.length > 0) {
  console.log(`\n${disagreements.length} unexplained disagreements:\n${disagreements.join('\n')}`);
  process.exit(1);
}
