import Table from 'cli-table3';

/** One column of a table: its header and, for the one column that may be cut, `flexible`. */
export interface Column {
  header: string;
  /** The column that gives up width when the table is wider than the terminal (e.g. MESSAGE). */
  flexible?: boolean;
}

/** How wide the table may be: the terminal's width, or unlimited when stdout is not a terminal or in `wide`. */
export function tableWidth(
  wide: boolean,
  stream: { isTTY?: boolean; columns?: number } = process.stdout,
): number {
  if (wide || !stream.isTTY) return Number.POSITIVE_INFINITY;
  return stream.columns && stream.columns > 20 ? stream.columns : 80;
}

const gap = 3;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are control characters by definition
const ansi = /\u001b\[[0-9;]*m/g;

/** The printed width of a cell, not counting colour codes. */
export function visibleWidth(text: string): number {
  return text.replace(ansi, '').length;
}

function cut(text: string, width: number): string {
  const plain = text.replace(ansi, '');
  if (plain.length <= width) return text;
  return width <= 1 ? plain.slice(0, width) : `${plain.slice(0, width - 1)}…`;
}

/**
 * Renders rows as a borderless, kubectl-like table that fits `width`: the flexible column is cut (with an
 * ellipsis) to what is left after the others; newlines inside cells are folded so each row stays one line.
 */
export function renderTable(columns: Column[], rows: string[][], width: number): string {
  const flat = rows.map((row) => row.map((cell) => cell.replace(/\s*\n\s*/g, ' ')));
  const natural = columns.map((column, index) =>
    Math.max(column.header.length, ...flat.map((row) => visibleWidth(row[index] ?? ''))),
  );
  const flexibleIndex = columns.findIndex((column) => column.flexible);
  const total = natural.reduce((sum, w) => sum + w, 0) + gap * (columns.length - 1);
  if (flexibleIndex >= 0 && total > width) {
    const others = total - (natural[flexibleIndex] ?? 0);
    natural[flexibleIndex] = Math.max(columns[flexibleIndex]!.header.length, width - others);
  }
  const table = new Table({
    head: columns.map((column) => column.header),
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: ' '.repeat(gap),
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    wordWrap: false,
  });
  for (const row of flat) {
    table.push(row.map((cell, index) => (index === flexibleIndex ? cut(cell, natural[index] ?? 0) : cell)));
  }
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
