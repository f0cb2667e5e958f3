import { renderTable } from '../src/lib/render/table.ts';

/**
 * `npm run bench:table`: is table rendering linear in the row count? The cost per row of 50,000 rows of the
 * status table's shape against the baseline, the cost per row of 5,000 rows, in the same run. Target: the
 * ratio stays under 1.5 (a quadratic step would make it about 10).
 */
const columns = [
  { header: 'NAMESPACE', shrinkable: true },
  { header: 'NAME', shrinkable: true },
  { header: 'STATE' },
  { header: 'REASON', shrinkable: true },
  { header: 'MESSAGE', flexible: true },
];

function rows(count: number): string[][] {
  return Array.from({ length: count }, (_, i) => [
    `namespace-${i % 50}`,
    `object-${i}`,
    '\u001b[32mReady\u001b[39m',
    'Succeeded',
    `the resource was provisioned ${i} 資源`,
  ]);
}

/** Best of `repeats` runs, in microseconds per row, so a stray pause does not decide the ratio. */
function microsPerRow(count: number, repeats: number): number {
  const input = rows(count);
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < repeats; r++) {
    const started = process.hrtime.bigint();
    renderTable(columns, input, 120);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1000 / count);
  }
  return best;
}

microsPerRow(5_000, 2); // warm-up
const small = microsPerRow(5_000, 5);
const large = microsPerRow(50_000, 3);
const ratio = large / small;
console.log(`baseline (5,000 rows):  ${small.toFixed(2)} µs/row`);
console.log(`measured (50,000 rows): ${large.toFixed(2)} µs/row`);
console.log(`ratio: ${ratio.toFixed(2)}x per row (target < 1.5x: linear) ${ratio < 1.5 ? 'MET' : 'MISSED'}`);
