import type { OutputFormat } from '../cli/output-flags.ts';
import type { KubeClient } from '../kube/client.ts';
import type { ListTuning } from '../status/collect.ts';
import { LiveStatus, type StatusChange } from '../status/live.ts';
import type { StatusReport, StatusWarning } from '../status/report.ts';
import type { StatusSelection } from '../status/selection.ts';
import { paletteFor } from './colors.ts';
import type { RenderContext } from './output.ts';
import { printable } from './printable.ts';
import { KindNames, rowOf, statusLayout, statusScreen, statusTable } from './status-table.ts';
import { formatRow, type TableLayout, tableWidth } from './table.ts';

/** Where and how `--watch` prints. */
export interface WatchOptions {
  format: OutputFormat;
  color: boolean;
  signal: AbortSignal;
  stream?: NodeJS.WriteStream;
  /** Where a table or pipe view prints a type that could no longer be watched; stderr by default. */
  errors?: NodeJS.WritableStream;
  tuning?: ListTuning;
}

/** One change as a JSON line (`-o json`) or YAML document (`-o yaml`). */
export async function changeDocument(change: StatusChange, format: 'json' | 'yaml'): Promise<string> {
  const event = { type: change.type, item: change.item };
  if (format === 'json') return `${JSON.stringify(event)}\n`;
  const { stringify } = await import('yaml');
  return `---\n${stringify(event)}`;
}

/**
 * One change as a table row without the header (a terminal that is not redrawn gets one line a change),
 * in the columns of the table printed first and with kinds named as `names` has learnt them.
 */
export function changeLine(
  change: StatusChange,
  context: RenderContext,
  layout: TableLayout,
  names: KindNames,
  now = Date.now(),
): string {
  names.see(change.item);
  const row = rowOf(change.item, context, now, (item) => names.nameOf(item));
  if (change.type === 'DELETED') row[3] = 'Deleted';
  return `${formatRow(row, layout, context.width)}\n`;
}

const clearScreen = '\u001b[H\u001b[2J';

/**
 * `--watch`: prints the report, then keeps it current from watch events until `signal` aborts (or the
 * cluster goes away or rejects the credentials: then it throws that typed error). A terminal
 * gets the whole view redrawn (at most ten times a second); a pipe gets the first table and then one line
 * per change; `-o json` gets one `{"type","item"}` line per object and per change, `-o yaml` one document
 * each. A type that can no longer be watched is reported as it happens: on stderr (pipe), in the view
 * (terminal), or as a `{"type":"WARNING","warning"}` line (`-o json`). Returns the report as it stood at the end.
 */
export async function runWatch(
  client: KubeClient,
  selection: StatusSelection,
  options: WatchOptions,
): Promise<StatusReport> {
  const stream = options.stream ?? process.stdout;
  const context: RenderContext = {
    palette: paletteFor(options.color, stream),
    width: tableWidth(options.format === 'wide', stream),
    wide: options.format === 'wide',
  };
  const live = new LiveStatus(client, selection, options.tuning);
  const structured = options.format === 'json' || options.format === 'yaml' ? options.format : undefined;
  const redraw = !structured && stream.isTTY === true;
  let started = false;
  let layout: TableLayout | undefined;
  let pending: NodeJS.Timeout | undefined;
  const names = new KindNames();
  let chain = Promise.resolve();
  // Each write waits for the one before; one the stream refuses (a reader that stopped reading) holds the
  // chain until the stream drains, and the returned promise holds the watches (LiveListener.onChange).
  const write = (text: () => Promise<string> | string): Promise<void> => {
    chain = chain.then(async () => {
      if (stream.destroyed || stream.writableEnded) return;
      if (!stream.write(await text())) await drained(stream);
    });
    return chain;
  };
  const draw = (): void => {
    pending = undefined;
    void write(() => clearScreen + statusScreen(live.report(), context, stream.rows));
  };
  const warningDocument = (warning: StatusWarning, format: 'json' | 'yaml'): Promise<string> | string =>
    format === 'json'
      ? `${JSON.stringify({ type: 'WARNING', warning })}\n`
      : import('yaml').then(({ stringify }) => `---\n${stringify({ type: 'WARNING', warning })}`);
  const onChange = (change: StatusChange): Promise<void> | undefined => {
    if (!started) return undefined;
    if (!live.shows(change.item) && !live.shows(change.previous)) return undefined;
    if (structured) return write(() => changeDocument(change, structured));
    if (redraw) {
      pending ??= setTimeout(draw, 100);
      return undefined;
    }
    if (!layout) return undefined;
    const lineLayout = layout;
    return write(() => changeLine(change, context, lineLayout, names));
  };
  const onWarning = (warning: StatusWarning): void => {
    if (!started) return;
    if (structured) void write(() => warningDocument(warning, structured));
    else if (redraw) pending ??= setTimeout(draw, 100);
    else (options.errors ?? process.stderr).write(`warning: ${printable(warning.message)}\n`);
  };
  await live.start(options.signal, { onChange, onWarning });
  const first = live.report();
  if (structured) {
    for (const item of first.items)
      void write(() => changeDocument({ type: 'ADDED', item, previous: undefined }, structured));
    for (const warning of first.warnings) void write(() => warningDocument(warning, structured));
  } else {
    layout = statusLayout(first.items, context);
    for (const item of first.items) names.see(item);
    void write(() =>
      redraw ? clearScreen + statusScreen(first, context, stream.rows) : statusTable(first, context),
    );
  }
  started = true;
  await live.stopped();
  if (pending) clearTimeout(pending);
  await chain;
  if (live.fatal !== undefined) throw live.fatal;
  return live.report();
}

/** Resolves once `stream` can take more, or can take nothing ever again (closed or failed). */
function drained(stream: NodeJS.WritableStream & { destroyed?: boolean }): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('close', done).off('error', done);
      resolve();
    };
    stream.once('drain', done).once('close', done).once('error', done);
  });
}
