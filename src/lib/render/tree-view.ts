import { type GraphNode, nodeLabel, type Relation } from '../graph/model.ts';
import type { GraphReport } from '../graph/report.ts';
import { forestOf, type TreeLine } from '../graph/tree.ts';
import type { State } from '../status/ready-state.ts';
import type { RenderContext } from './output.ts';
import { printable } from './printable.ts';
import { ageOf, colourOf } from './status-table.ts';
import { type Column, formatRow, tableLayout, visibleWidth } from './table.ts';

/** The columns of the tree; the drawn NAME is never cut, ARM ID gives up width first. */
export const treeColumns: Column[] = [
  { header: 'NAME' },
  { header: 'STATE' },
  { header: 'SEVERITY' },
  { header: 'REASON', shrinkable: true },
  { header: 'AGE' },
  { header: 'ARM ID', flexible: true },
];

const relationWords: Record<Relation, string> = {
  owner: 'owner',
  reference: 'refers to it at',
  secret: 'reads it at',
  configMap: 'reads it at',
  exportSecret: 'writes it at',
  exportConfigMap: 'writes it at',
  ownerReference: 'owned by it at',
};

/** What the STATE column says of a node: the Ready state of an object, else whether it was found. */
export function stateText(node: GraphNode): string {
  if (node.presence === 'missing') return 'Missing';
  if (node.presence === 'unknown') return 'Unknown (not readable)';
  if (node.presence === 'external') return 'External';
  return node.state ?? 'Present';
}

function colourFor(context: RenderContext, node: GraphNode): (text: string) => string {
  if (node.presence === 'missing') return context.palette.red;
  if (node.presence === 'unknown' || node.presence === 'external') return context.palette.gray;
  return node.state ? colourOf(context.palette, node.state as State) : (text) => text;
}

interface DrawnRow {
  cells: string[];
  /** The guide drawn before this row's children and its message (`│  ` per open level). */
  under: string;
  message: string;
}

function nameCell(line: TreeLine, node: GraphNode): string {
  const label = printable(nodeLabel(node));
  const via = line.relation ? ` (${relationWords[line.relation]} ${line.at})` : '';
  const seen = line.repeated ? ' (drawn above)' : '';
  return `${label}${via}${seen}`;
}

function draw(
  lines: TreeLine[],
  nodes: Map<string, GraphNode>,
  context: RenderContext,
  now: number,
  guide: string,
  root: boolean,
  rows: DrawnRow[],
): void {
  lines.forEach((line, index) => {
    const last = index === lines.length - 1;
    const node = nodes.get(line.id) as GraphNode;
    const branch = root ? '' : last ? '└─ ' : '├─ ';
    const under = root ? '' : `${guide}${last ? '   ' : '│  '}`;
    const object = node.type === 'aso' && node.presence === 'present' && line.relation === null;
    const armId = object ? (node.armId ?? '') : node.type === 'arm' ? node.name : '';
    rows.push({
      cells: [
        `${guide}${branch}${nameCell(line, node)}`,
        colourFor(context, node)(stateText(node)),
        object ? printable(node.severity) : '',
        object ? printable(node.reason) : '',
        object ? ageOf(node, now) : '',
        printable(armId),
      ],
      // The message sits between this row and its children: the guide down to them continues through it.
      under: `${under}${line.children.length > 0 ? '│  ' : '   '}`,
      message: object ? node.message : '',
    });
    draw(line.children, nodes, context, now, under, false, rows);
  });
}

/** Splits text into lines of at most `width` columns at spaces, and a word longer than that across lines: nothing is cut. */
export function wrapText(text: string, width: number): string[] {
  if (!Number.isFinite(width) || visibleWidth(text) <= width) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    let rest = word;
    const candidate = current === '' ? rest : `${current} ${rest}`;
    if (visibleWidth(candidate) <= width) {
      current = candidate;
      continue;
    }
    if (current !== '') lines.push(current);
    current = '';
    while (visibleWidth(rest) > width) {
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    current = rest;
  }
  if (current !== '') lines.push(current);
  return lines;
}

/**
 * The graph as a tree in the terminal: one row per node with its state, severity, reason, age and ARM ID;
 * with `-o wide` each object's Ready message in full under its row, wrapped to `wrapWidth` (the terminal)
 * and never cut. Cycles are named under the tree.
 */
export function treeView(wrapWidth: number): (report: GraphReport, context: RenderContext) => string {
  return (report, context) => {
    const nodes = new Map(report.nodes.map((node) => [node.id, node]));
    const rows: DrawnRow[] = [];
    draw(forestOf(report, report.targets), nodes, context, Date.now(), '', true, rows);
    if (rows.length === 0) return 'No ASO resources found.\n';
    const layout = tableLayout(
      treeColumns,
      rows.map((row) => row.cells),
      context.width,
    );
    const out = [
      formatRow(
        treeColumns.map((column) => column.header),
        layout,
        context.width,
      ),
    ];
    for (const row of rows) {
      out.push(formatRow(row.cells, layout, context.width));
      if (!context.wide || row.message === '') continue;
      const indent = row.under;
      const width = Math.max(20, wrapWidth - visibleWidth(indent));
      for (const text of wrapText(printable(row.message), width)) out.push(`${indent}${text}`);
    }
    for (const cycle of report.cycles) {
      out.push(`cycle: ${cycle.map((id) => printable(nodeLabel(nodes.get(id) as GraphNode))).join(' -> ')}`);
    }
    return `${out.join('\n')}\n`;
  };
}

/**
 * The width `-o wide` wraps messages to: the terminal's, or `COLUMNS` when output is not a terminal (as
 * shells export it), else no wrapping: a message piped to a file stays on one line, whole.
 */
export function wrapWidthOf(
  stream: { isTTY?: boolean; columns?: number },
  environment: NodeJS.ProcessEnv = process.env,
): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const columns = Number(environment.COLUMNS);
  return Number.isInteger(columns) && columns > 20 ? columns : Number.POSITIVE_INFINITY;
}
