import { catalog } from '../generated/catalog.ts';
import { propertySeed } from '../src/testing/conversion-support.ts';
import {
  compareKindRandomly,
  disagreementReport,
  figuresLine,
  type KindFigures,
  sharedKind,
} from '../test/differential/random-pairs.ts';
import { operatorConversionBinaries } from '../test/fixtures/operator-conversion.ts';
import { sharedData } from '../test/fixtures/shared-data.ts';

/**
 * `npm run bench:differential [-- --objects N --kind K ...]`: the differential test's comparison with more
 * random objects per version pair (default 1,000; the test runs 300), printing the agreement figures per kind
 * (conversions compared, agreements, the named exclusions each needed) and the time convert() took against
 * the time the operator's own conversions took on the same objects, measured in the same run (one version
 * pair at a time, so that neither side's time includes waiting for the other). Exits 1 on
 * any unexplained disagreement, listing each with the object that reproduces it.
 */
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const objects = Number(option('--objects') ?? 1000);
const only = args.flatMap((arg, index) => (args[index - 1] === '--kind' ? [arg] : []));
const crds = sharedData('real-aso-crds/v2.20.0', 'bench/differential.ts');
if (!crds.present) process.exit(2);

const binaryStart = performance.now();
await operatorConversionBinaries(
  catalog.filter((entry) => only.length === 0 || only.includes(entry.kind)).map((entry) => entry.group),
);
console.log(
  `operator-conversion binaries ready in ${((performance.now() - binaryStart) / 1000).toFixed(1)}s`,
);
console.log(`${objects} random objects per shared version pair, both ways round, seed ${propertySeed}`);

const all: KindFigures[] = [];
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
}

const total = (pick: (figures: KindFigures) => number) =>
  all.reduce((sum, figures) => sum + pick(figures), 0);
const time = (side: 'ours' | 'operator') =>
  total((figures) => figures.pairs.reduce((sum, pair) => sum + pair.time[side], 0));
const compared = total((figures) => figures.compared);
console.log(
  `all: ${total((figures) => figures.agreed)} of ${compared} conversions agree over ` +
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
