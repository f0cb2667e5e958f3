import stringWidth from 'string-width';

/** One column of a table: its header, and whether it may give up width when the table is too wide. */
export interface Column {
  header: string;
  /** The column that gives up width first when the table is wider than the terminal (e.g. MESSAGE). */
  flexible?: boolean;
  /** A column cut next, widest first, when the others alone are too wide (e.g. NAME, REASON). */
  shrinkable?: boolean;
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
const separator = ' '.repeat(gap);
/** The narrowest the flexible column is cut to before other columns are cut. */
const minFlexibleWidth = 10;
/** The narrowest a shrinkable column is cut to. */
const minShrinkWidth = 8;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are control characters by definition
const ansi = /\u001b\[[0-9;]*m/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are control characters by definition
const ansiOrText = /(\u001b\[[0-9;]*m)|([^\u001b]+|\u001b)/g;
const printableAscii = /^[\x20-\x7e]*$/;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The terminal columns one grapheme takes: 2 for CJK and emoji, 0 for a combining mark, 1 otherwise. */
function graphemeWidth(grapheme: string): number {
  return printableAscii.test(grapheme) ? grapheme.length : stringWidth(grapheme);
}

/**
 * The printed width of a cell in terminal columns (CJK and emoji take two), not counting colour codes.
 * Summed per grapheme, so that {@link cutTo} cuts to exactly what this measures.
 */
export function visibleWidth(text: string): number {
  const plain = text.includes('\u001b') ? text.replace(ansi, '') : text;
  if (printableAscii.test(plain)) return plain.length;
  let width = 0;
  for (const { segment } of graphemes.segment(plain)) width += graphemeWidth(segment);
  return width;
}

/**
 * The text cut to at most `width` terminal columns, the last one an ellipsis; whole graphemes only (a
 * wide character that does not fit is left out, never halved); colour codes are kept and closed.
 */
export function cutTo(text: string, width: number): string {
  if (visibleWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let shown = 0;
  let coloured = false;
  cutting: for (const [, code, run] of text.matchAll(ansiOrText)) {
    if (code) {
      out += code;
      coloured = true;
      continue;
    }
    for (const { segment } of graphemes.segment(run ?? '')) {
      const next = graphemeWidth(segment);
      if (shown + next > width - 1) break cutting;
      out += segment;
      shown += next;
    }
  }
  return `${out}…${coloured ? '\u001b[0m' : ''}`;
}

/** The widths a table's columns get, and whether cells longer than their column are cut. */
export interface TableLayout {
  columns: Column[];
  widths: number[];
  cut: boolean;
}

function fold(cell: string): string {
  return cell.includes('\n') ? cell.replace(/\s*\n\s*/g, ' ') : cell;
}

/**
 * The column widths that fit `width`: each column as wide as its widest cell; when that is too wide, the
 * flexible column is cut down to a small minimum, then the shrinkable ones, widest first, each to a small
 * minimum. Whatever still does not fit is cut at the end of the line by {@link formatRow}.
 */
export function tableLayout(columns: Column[], rows: string[][], width: number): TableLayout {
  const widths = columns.map((column) => column.header.length);
  for (const row of rows) {
    for (let index = 0; index < columns.length; index++) {
      const cellWidth = visibleWidth(fold(row[index] ?? ''));
      if (cellWidth > (widths[index] as number)) widths[index] = cellWidth;
    }
  }
  const total = (): number => widths.reduce((sum, w) => sum + w, 0) + gap * (columns.length - 1);
  let excess = total() - width;
  const flexibleIndex = columns.findIndex((column) => column.flexible);
  if (excess > 0 && flexibleIndex >= 0) {
    const current = widths[flexibleIndex] as number;
    const floor = Math.min(current, Math.max(columns[flexibleIndex]?.header.length ?? 0, minFlexibleWidth));
    const next = Math.max(floor, current - excess);
    widths[flexibleIndex] = next;
    excess -= current - next;
  }
  const floorOf = (index: number): number => Math.max(columns[index]?.header.length ?? 0, minShrinkWidth);
  const shrinkable = columns.flatMap((column, index) => (column.shrinkable ? [index] : []));
  while (excess > 0) {
    const eligible = shrinkable
      .filter((index) => (widths[index] as number) > floorOf(index))
      .sort((a, b) => (widths[b] as number) - (widths[a] as number));
    const widest = eligible[0];
    if (widest === undefined) break;
    const second = eligible[1] === undefined ? 0 : (widths[eligible[1]] as number);
    const current = widths[widest] as number;
    const target = Math.max(floorOf(widest), second, current - excess);
    const next = target < current ? target : current - 1;
    widths[widest] = next;
    excess -= current - next;
  }
  return { columns, widths, cut: Number.isFinite(width) };
}

/** One line of a table laid out by {@link tableLayout}: cells cut and padded to their column, no trailing space. */
export function formatRow(row: string[], layout: TableLayout, width = Number.POSITIVE_INFINITY): string {
  const last = layout.columns.length - 1;
  let line = '';
  for (let index = 0; index <= last; index++) {
    let cell = fold(row[index] ?? '');
    const columnWidth = layout.widths[index] as number;
    let cellWidth = visibleWidth(cell);
    if (layout.cut && cellWidth > columnWidth) {
      cell = cutTo(cell, columnWidth);
      cellWidth = visibleWidth(cell);
    }
    line += index === last ? cell : cell + ' '.repeat(Math.max(0, columnWidth - cellWidth)) + separator;
  }
  line = line.trimEnd();
  return Number.isFinite(width) && visibleWidth(line) > width ? cutTo(line, width) : line;
}

/**
 * Renders rows as a borderless, kubectl-like table that fits `width`: the flexible column is cut (with an
 * ellipsis) to what is left after the others, then long columns if need be, and no line is ever wider than
 * `width`; newlines inside cells are folded so each row stays one line. Linear in the number of cells.
 */
export function renderTable(columns: Column[], rows: string[][], width: number): string {
  const layout = tableLayout(columns, rows, width);
  const lines = [
    formatRow(
      columns.map((column) => column.header),
      layout,
      width,
    ),
  ];
  for (const row of rows) lines.push(formatRow(row, layout, width));
  return lines.join('\n');
}
