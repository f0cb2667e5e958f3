import { printable } from '../../render/printable.ts';

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
  const hunks = new HunkWriter(context);
  for (const [p, piece] of pieces.entries()) {
    const a = splitLines(piece.before);
    if (piece.before !== piece.after) {
      for (const step of editScript(a, splitLines(piece.after))) hunks.add(step);
      continue;
    }
    // Only the context next to a changed neighbour can be shown; the lines between are a gap.
    const head = p > 0 ? Math.min(context, a.length) : 0;
    const tail = p < pieces.length - 1 ? Math.min(context, a.length - head) : 0;
    for (const line of a.slice(0, head)) hunks.add({ op: ' ', line });
    const middle = a.length - head - tail;
    if (middle > 0) hunks.add({ op: 'gap', count: middle });
    for (const line of a.slice(a.length - tail)) hunks.add({ op: ' ', line });
  }
  // A file name is the user's and may hold a line break or an escape: one header line each, made printable.
  const name = printable(file);
  return `--- a/${name}\n+++ b/${name}\n${hunks.end()}`;
}

/**
 * Turns an edit script into hunks as it comes, holding only the hunk being built and the few unchanged
 * lines before it: changes closer than twice the context share a hunk, and each hunk shows up to
 * `context` unchanged lines on either side, as `diff -u` does.
 */
class HunkWriter {
  private readonly hunks: string[] = [];
  /** The numbers the next line has in the old and in the new text. */
  private oldLine = 1;
  private newLine = 1;
  /** The last unchanged lines seen outside a hunk: the next hunk's leading context. */
  private window: Step[] = [];
  private open: { steps: Step[]; oldStart: number; newStart: number; trailing: number } | undefined;

  private readonly context: number;

  constructor(context: number) {
    this.context = context;
  }

  add(step: Step | Gap): void {
    if (step.op === 'gap') {
      this.close();
      this.window = [];
      this.oldLine += step.count;
      this.newLine += step.count;
      return;
    }
    if (step.op === ' ') {
      this.oldLine++;
      this.newLine++;
      if (this.open) {
        this.open.steps.push(step);
        this.open.trailing++;
        if (this.open.trailing > 2 * this.context) this.close();
      } else {
        this.window.push(step);
        if (this.window.length > this.context) this.window.shift();
      }
      return;
    }
    if (!this.open) {
      const lead = this.window.length;
      this.open = {
        steps: this.window,
        oldStart: this.oldLine - lead,
        newStart: this.newLine - lead,
        trailing: 0,
      };
      this.window = [];
    }
    this.open.steps.push(step);
    this.open.trailing = 0;
    if (step.op === '-') this.oldLine++;
    else this.newLine++;
  }

  end(): string {
    this.close();
    return this.hunks.join('');
  }

  private close(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    const shown = open.steps.length - Math.max(0, open.trailing - this.context);
    // Unchanged lines past this hunk's trailing context may lead the next one.
    this.window = open.steps.slice(shown).slice(-this.context);
    this.hunks.push(hunk(open.steps.slice(0, shown), open.oldStart, open.newStart));
  }
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function hunk(slice: readonly Step[], oldStart: number, newStart: number): string {
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
