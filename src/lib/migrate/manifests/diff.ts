/** One line of an edit script: kept, removed from the old text, or added in the new. */
type Step = { op: ' ' | '-' | '+'; line: string };

/**
 * Unchanged lines too far from any change to be shown as context: only their number is kept, so that a
 * diff of a large file holds the lines near its changes, not every line of the file.
 */
type Gap = { op: 'gap'; count: number };

/**
 * A stretch of a file before and after a rewrite, in whole lines. A file rewritten document by document
 * is a list of them, so that the diff compares only what changed, one stretch at a time, instead of
 * searching the whole file for an edit script (which takes time and memory in the number of changes
 * times the file's length: hours for a file of tens of thousands of changed documents).
 */
export interface TextPiece {
  before: string;
  after: string;
}

/**
 * A unified diff (`diff -u` format, 3 lines of context) between two texts, with `a/` and `b/` headers
 * naming the file; empty when the texts are equal. It exists so that `--diff` needs no external `diff`
 * program (kubectl diff shells out to one; a GitOps check in CI often has none).
 */
export function unifiedDiff(file: string, before: string, after: string, context = 3): string {
  return unifiedDiffOfPieces(file, [{ before, after }], context);
}

/** {@link unifiedDiff} of a text given as pieces, each diffed on its own (see {@link TextPiece}). */
export function unifiedDiffOfPieces(file: string, pieces: readonly TextPiece[], context = 3): string {
  if (pieces.every((piece) => piece.before === piece.after)) return '';
  const steps: Array<Step | Gap> = [];
  for (const [p, piece] of pieces.entries()) {
    const a = splitLines(piece.before);
    if (piece.before !== piece.after) {
      for (const step of editScript(a, splitLines(piece.after))) steps.push(step);
      continue;
    }
    // Only the context next to a changed neighbour can be shown; the lines between are a gap.
    const head = p > 0 ? Math.min(context, a.length) : 0;
    const tail = p < pieces.length - 1 ? Math.min(context, a.length - head) : 0;
    for (const line of a.slice(0, head)) steps.push({ op: ' ', line });
    const middle = a.length - head - tail;
    if (middle > 0) steps.push({ op: 'gap', count: middle });
    for (const line of a.slice(a.length - tail)) steps.push({ op: ' ', line });
  }
  // Line numbers where each step stands in the old and the new text, counted once.
  const oldLine = new Int32Array(steps.length + 1);
  const newLine = new Int32Array(steps.length + 1);
  oldLine[0] = 1;
  newLine[0] = 1;
  for (const [k, step] of steps.entries()) {
    const kept = step.op === 'gap' ? step.count : 1;
    oldLine[k + 1] = (oldLine[k] ?? 1) + (step.op !== '+' ? kept : 0);
    newLine[k + 1] = (newLine[k] ?? 1) + (step.op !== '-' ? kept : 0);
  }
  const isChange = (step: Step | Gap | undefined) => step?.op === '-' || step?.op === '+';
  const hunks: string[] = [];
  let i = 0;
  while (i < steps.length) {
    while (i < steps.length && !isChange(steps[i])) i++;
    if (i >= steps.length) break;
    let start = i;
    while (start > 0 && i - start < context && steps[start - 1]?.op === ' ') start--;
    let end = i;
    // Extend the hunk while changes are closer than twice the context apart (a gap is always farther).
    for (let j = i; j < steps.length; j++) {
      if (steps[j]?.op === 'gap') break;
      if (isChange(steps[j])) end = j;
      else if (j - end > 2 * context) break;
    }
    let stop = end + 1;
    while (stop < steps.length && stop - end <= context && steps[stop]?.op === ' ') stop++;
    hunks.push(hunk(steps, start, stop, oldLine[start] ?? 1, newLine[start] ?? 1));
    i = stop;
  }
  return `--- a/${file}\n+++ b/${file}\n${hunks.join('')}`;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function hunk(
  steps: Array<Step | Gap>,
  start: number,
  stop: number,
  oldStart: number,
  newStart: number,
): string {
  const slice = steps.slice(start, stop).filter((step): step is Step => step.op !== 'gap');
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
