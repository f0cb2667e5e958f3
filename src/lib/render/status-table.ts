import type { ChalkInstance } from 'chalk';
import { type State, stateRank, states } from '../status/ready-state.ts';
import { kindKey, type StatusItem, type StatusReport } from '../status/report.ts';
import type { RenderContext } from './output.ts';
import { printable } from './printable.ts';
import { type Column, renderTable, type TableLayout, tableLayout } from './table.ts';

/**
 * The columns of the status table, in order. MESSAGE gives up width first when the terminal is narrow,
 * then the long names (NAMESPACE, KIND, NAME, REASON), widest first; STATE, SEVERITY and AGE are never cut.
 */
export const statusColumns: Column[] = [
  { header: 'NAMESPACE', shrinkable: true },
  { header: 'KIND', shrinkable: true },
  { header: 'NAME', shrinkable: true },
  { header: 'STATE' },
  { header: 'SEVERITY' },
  { header: 'REASON', shrinkable: true },
  { header: 'AGE' },
  { header: 'MESSAGE', flexible: true },
];

/** The colour of each state: green is done, red needs the user, yellow is being retried. */
export function colourOf(palette: ChalkInstance, state: State): (text: string) => string {
  switch (state) {
    case 'Ready':
      return palette.green;
    case 'Progressing':
      return palette.cyan;
    case 'Warning':
      return palette.yellow;
    case 'Error':
      return palette.red;
    case 'Deleting':
      return palette.magenta;
    case 'Unknown':
      return palette.gray;
  }
}

/** An age as kubectl prints one: `45s`, `3m20s`, `12m`, `5h3m`, `20h`, `3d4h`, `30d`, `2y`. */
export function humanAge(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (seconds < 120) return `${seconds}s`;
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (hours < 3) return `${minutes}m`;
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (days < 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  return `${Math.floor(days / 365)}y`;
}

/** The age of an item's Ready condition, `<none>` when it has no transition time. */
export function ageOf(item: Pick<StatusItem, 'lastTransitionTime'>, now: number): string {
  const time = item.lastTransitionTime ? Date.parse(item.lastTransitionTime) : Number.NaN;
  return Number.isNaN(time) ? '<none>' : humanAge(now - time);
}

/** The STATE cell: the state, marked when the condition describes an older spec. */
export function stateCell(item: Pick<StatusItem, 'state' | 'stale'>): string {
  return item.stale ? `${item.state} (stale)` : item.state;
}

/** Kinds print bare unless two groups share one among the items, then as `Kind.group`. */
export function kindNamer(items: Iterable<Pick<StatusItem, 'kind' | 'group'>>): (item: StatusItem) => string {
  const namer = new KindNames();
  for (const item of items) namer.see(item);
  return (item) => namer.nameOf(item);
}

/**
 * The same naming, learnt as items arrive, for a watch: each line costs a map lookup instead of a pass
 * over every object watched. A kind once seen in two groups keeps its group in every later line.
 */
export class KindNames {
  private readonly groups = new Map<string, Set<string>>();

  /** Records the item's kind and group. */
  see(item: Pick<StatusItem, 'kind' | 'group'>): void {
    const known = this.groups.get(item.kind);
    if (known) known.add(item.group);
    else this.groups.set(item.kind, new Set([item.group]));
  }

  /** The kind as printed: bare, or `Kind.group` when another group has a kind of that name. */
  nameOf(item: Pick<StatusItem, 'kind' | 'group'>): string {
    return (this.groups.get(item.kind)?.size ?? 0) > 1 ? kindKey(item) : item.kind;
  }
}

/** One table row of an item; text from the cluster is made {@link printable}. */
export function rowOf(
  item: StatusItem,
  context: RenderContext,
  now: number,
  kindName: (item: StatusItem) => string,
): string[] {
  return [
    printable(item.namespace ?? ''),
    printable(kindName(item)),
    printable(item.name),
    colourOf(context.palette, item.state)(stateCell(item)),
    printable(item.severity),
    printable(item.reason),
    ageOf(item, now),
    printable(item.message),
  ];
}

function top(counts: Record<string, number>, limit: number): string {
  const entries = Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const shown = entries.slice(0, limit).map(([key, value]) => `${printable(key)} ${value}`);
  if (entries.length > limit) shown.push(`(+${entries.length - limit} more)`);
  return shown.join(', ');
}

/** The lines under the table: counts by state, the most frequent reasons of what is not Ready, counts by kind. */
export function summaryLines(report: StatusReport, context: RenderContext): string[] {
  const { summary, items } = report;
  const stale = items.filter((item) => item.stale).length;
  const byState = states
    .filter((state) => summary.byState[state] > 0)
    .map((state) => colourOf(context.palette, state)(`${summary.byState[state]} ${state}`));
  const lines = [
    // The stale count is a clause of its own: next to a state it would read as part of that state.
    `${summary.total} ${summary.total === 1 ? 'resource' : 'resources'}: ${byState.join(', ') || 'none'}${stale > 0 ? `; ${stale} stale (condition older than the spec)` : ''}`,
  ];
  const notReadyReasons: Record<string, number> = {};
  for (const item of items) {
    if (item.state === 'Ready') continue;
    const reason = item.reason || '(none)';
    notReadyReasons[reason] = (notReadyReasons[reason] ?? 0) + 1;
  }
  if (Object.keys(notReadyReasons).length > 0)
    lines.push(`top reasons (not Ready): ${top(notReadyReasons, 5)}`);
  const kindName = kindNamer(items);
  const byKind: Record<string, number> = {};
  for (const item of items) byKind[kindName(item)] = (byKind[kindName(item)] ?? 0) + 1;
  if (items.length > 0) lines.push(`by kind: ${top(byKind, context.wide ? Number.POSITIVE_INFINITY : 8)}`);
  return lines;
}

/** The warnings as lines: each type that could not be read, grouped by reason when there are many. */
export function warningLines(report: StatusReport, context: RenderContext): string[] {
  if (report.warnings.length === 0) return [];
  const lines = [
    context.palette.yellow(
      `warnings: ${report.warnings.length} could not be read; the counts above leave them out`,
    ),
  ];
  const limit = context.wide ? Number.POSITIVE_INFINITY : 10;
  for (const warning of report.warnings.slice(0, limit)) lines.push(`  ${printable(warning.message)}`);
  if (report.warnings.length > limit)
    lines.push(`  ... and ${report.warnings.length - limit} more (-o wide or -o json lists all)`);
  return lines;
}

/** The rows of the items, kinds named unambiguously among them. */
export function statusRows(items: StatusItem[], context: RenderContext, now: number): string[][] {
  const kindName = kindNamer(items);
  return items.map((item) => rowOf(item, context, now, kindName));
}

/** The column widths the table of these items gets, for lines printed under it later (`--watch`). */
export function statusLayout(items: StatusItem[], context: RenderContext, now = Date.now()): TableLayout {
  return tableLayout(statusColumns, statusRows(items, context, now), context.width);
}

/** The human view of a report: the table, the summary, and what could not be read. */
export function statusTable(report: StatusReport, context: RenderContext, now = Date.now()): string {
  const parts: string[] = [];
  if (report.items.length === 0) {
    parts.push('No ASO resources found.');
  } else {
    parts.push(renderTable(statusColumns, statusRows(report.items, context, now), context.width));
    parts.push('');
    parts.push(...summaryLines(report, context));
  }
  const warnings = warningLines(report, context);
  if (warnings.length > 0) parts.push('', ...warnings);
  return `${parts.join('\n')}\n`;
}

/**
 * The view of `--watch` on a terminal of `rows` lines: the whole table when it fits; otherwise the header,
 * the worst rows first (Error, then Warning, ...; stale before current within a state), a `+N more` line
 * naming the states left out, then the summary and warnings, so that redrawing never scrolls the top away.
 */
export function statusScreen(
  report: StatusReport,
  context: RenderContext,
  rows: number | undefined,
  now = Date.now(),
): string {
  const whole = statusTable(report, context, now);
  if (!rows || rows <= 0 || whole.split('\n').length - 1 <= rows) return whole;
  const below = [...summaryLines(report, context)];
  const warnings = warningLines(report, context);
  if (warnings.length > 0) below.push('', ...warnings);
  // Header, blank line before the summary, the `+N more` line, and the line the cursor rests on.
  const room = Math.max(1, rows - below.length - 4);
  const worstFirst = [...report.items].sort(
    (a, b) => stateRank[b.state] - stateRank[a.state] || Number(b.stale) - Number(a.stale),
  );
  const shown = worstFirst.slice(0, room);
  const hidden: Record<string, number> = {};
  for (const item of worstFirst.slice(room)) hidden[item.state] = (hidden[item.state] ?? 0) + 1;
  const left = states
    .filter((state) => (hidden[state] ?? 0) > 0)
    .map((state) => `${hidden[state]} ${state}`)
    .join(', ');
  const more = `+${report.items.length - shown.length} more (${left}); a taller terminal shows all`;
  const kindName = kindNamer(report.items);
  const table = renderTable(
    statusColumns,
    shown.map((item) => rowOf(item, context, now, kindName)),
    context.width,
  );
  return `${[table, more, '', ...below].join('\n')}\n`;
}
