import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff, unifiedDiffOfPieces } from '../../../../src/lib/migrate/manifests/diff.ts';

const dir = mkdtempSync(join(tmpdir(), 'kubectl-aso-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** GNU diff's own unified diff of the two texts, without its two header lines (they carry file times). */
function gnuDiff(before: string, after: string): string {
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  try {
    execFileSync('diff', ['-u', join(dir, 'a'), join(dir, 'b')], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout: string }).stdout)
      .split('\n')
      .slice(2)
      .join('\n');
  }
}

const lines = Array.from({ length: 40 }, (_, i) => `  key${i}: value ${i}`);
const text = (rows: string[]) => `${rows.join('\n')}\n`;
const edited = (edits: Record<number, string | null>, inserted: Record<number, string> = {}) =>
  text(
    lines.flatMap((line, i) => {
      const out = inserted[i] !== undefined ? [inserted[i] as string] : [];
      const edit = edits[i];
      return edit === null ? out : [...out, edit ?? line];
    }),
  );

const cases: Array<[string, string]> = [
  ['a change on the first line', edited({ 0: 'apiVersion: x/v1api20230601' })],
  ['a change on the last line', edited({ 39: '  key39: changed' })],
  ['two changes close enough to share a hunk', edited({ 10: 'a', 16: 'b' })],
  ['two changes far enough apart for two hunks', edited({ 10: 'a', 17: 'b' })],
  ['two changes just too far apart to share one', edited({ 10: 'a', 18: 'b' })],
  ['a removed line', edited({ 20: null })],
  ['an added line', edited({}, { 20: '  added: true' })],
  ['changes everywhere', edited({ 1: 'x', 2: null, 25: 'y', 38: 'z' }, { 30: '  inserted: 1' })],
];

describe.skipIf(!gnuDiffPresent())('unifiedDiff', () => {
  for (const [name, after] of cases) {
    it(`matches GNU diff -u for ${name}`, () => {
      const ours = unifiedDiff('m.yaml', text(lines), after);
      expect(ours.split('\n').slice(0, 2)).toEqual(['--- a/m.yaml', '+++ b/m.yaml']);
      expect(ours.split('\n').slice(2).join('\n')).toBe(gnuDiff(text(lines), after));
    });
  }

  it('is empty for equal texts', () => {
    expect(unifiedDiff('m.yaml', text(lines), text(lines))).toBe('');
    expect(unifiedDiffOfPieces('m.yaml', [{ before: 'a\n', after: 'a\n' }])).toBe('');
  });

  for (const padding of [0, 12]) {
    it(`matches GNU diff -u for a file given as pieces, one per document, many changed (${padding} more lines each)`, () => {
      // Changes near piece edges share hunks across pieces; line numbers run on through unchanged pieces,
      // and the long unchanged stretches of the padded pieces are left out as gaps.
      const pad = Array.from({ length: padding }, (_, k) => `  p${k}: ${k}\n`).join('');
      const pieces = Array.from({ length: 300 }, (_, i) => {
        const before = `---\napiVersion: a/v1alpha1\nkind: K\nmetadata:\n  name: n${i}\n${pad}`;
        const after =
          i % 3 === 0 ? before.replace('v1alpha1', 'v1') : i % 7 === 0 ? `${before}extra: ${i}\n` : before;
        return { before, after };
      });
      const before = pieces.map((piece) => piece.before).join('');
      const after = pieces.map((piece) => piece.after).join('');
      const ours = unifiedDiffOfPieces('m.yaml', pieces);
      expect(ours.split('\n').slice(2).join('\n')).toBe(gnuDiff(before, after));
      expect(ours).toBe(unifiedDiff('m.yaml', before, after));
    });
  }
});

function gnuDiffPresent(): boolean {
  try {
    execFileSync('diff', ['--version']);
    return true;
  } catch {
    process.stderr.write('skipped: unifiedDiff is compared with GNU diff, which is not installed\n');
    return false;
  }
}
