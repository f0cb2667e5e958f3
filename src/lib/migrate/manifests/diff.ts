import { printable } from '../../render/printable.ts';

/** One line of an edit script: kept, removed from the old text, or added in the new. */
type Step = { op: ' ' | '-' | '+'; line: string };

/**
 * A unified diff (`diff -u` format, 3 lines of context) between two texts, with `a/` and `b/` headers
 * naming the file; empty when the texts are equal. It exists so that `--diff` needs no external `diff`
 * program (kubectl diff shells out to one; a GitOps check in CI often has none).
 */
export function unifiedDiff(file: string, before: string, after: string, context = 3): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const steps = editScript(a, b);
  const hunks: string[] = [];
  let i = 0;
  while (i < steps.length) {
    while (i < steps.length && steps[i]?.op === ' ') i++;
    if (i >= steps.length) break;
    const start = Math.max(0, i - context);
    let end = i;
    // Extend the hunk while changes are closer than twice the context apart.
    for (let j = i; j < steps.length; j++) {
      if (steps[j]?.op !== ' ') end = j;
      else if (j - end > 2 * context) break;
    }
    const stop = Math.min(steps.length, end + context + 1);
    hunks.push(hunk(steps, start, stop));
    i = stop;
  }
  // A file name is the user's and may hold a line break or an escape: one header line each, made printable.
  const name = printable(file);
  return `--- a/${name}\n+++ b/${name}\n${hunks.join('')}`;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function hunk(steps: Step[], start: number, stop: number): string {
  let oldStart = 1;
  let newStart = 1;
  for (let k = 0; k < start; k++) {
    if (steps[k]?.op !== '+') oldStart++;
    if (steps[k]?.op !== '-') newStart++;
  }
  const slice = steps.slice(start, stop);
  const oldCount = slice.filter((step) => step.op !== '+').length;
  const newCount = slice.filter((step) => step.op !== '-').length;
  const range = (from: number, count: number) => `${count === 0 ? from - 1 : from},${count}`;
  const body = slice.map((step) => `${step.op}${step.line}\n`).join('');
  return `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n${body}`;
}

/**
 * The shortest edit script from `a` to `b` (Myers' O(ND) algorithm): manifests change in a few lines, so
 * D is small and files of any length diff quickly.
 */
function editScript(a: string[], b: string[]): Step[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  const steps: Step[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const row = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (row[offset + k - 1] ?? 0) < (row[offset + k + 1] ?? 0));
    const prevK = down ? k + 1 : k - 1;
    const prevX = row[offset + prevK] ?? 0;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      steps.push({ op: ' ', line: a[x - 1] ?? '' });
      x--;
      y--;
    }
    if (d > 0) {
      if (down) steps.push({ op: '+', line: b[y - 1] ?? '' });
      else steps.push({ op: '-', line: a[x - 1] ?? '' });
      x = prevX;
      y = prevY;
    }
  }
  return steps.reverse();
}
