import type { AdoptReport } from '../adoption/report.ts';
import type { HumanRenderer } from './output.ts';
import { printable } from './printable.ts';

/**
 * The human view: one line per object, loud outcomes coloured (adopt-manage red: a later delete deletes
 * an existing resource), then warnings and a summary line. `wide` adds the ARM ID and the changes.
 */
export const adoptTable: HumanRenderer<AdoptReport> = (report, { palette, wide }) => {
  const header = [
    'NAMESPACE',
    'KIND',
    'NAME',
    'EXISTS',
    'POLICY',
    'OUTCOME',
    'CHANGES',
    ...(wide ? ['ARM ID', 'REASON'] : []),
  ];
  // Names, reasons and changes come from the user's files and from Azure: made printable.
  const rows = report.items.map((item) => [
    printable(item.namespace),
    printable(item.kind),
    printable(item.name),
    item.exists === null ? '?' : item.exists ? 'yes' : 'no',
    item.reconcilePolicyIfExists
      ? `${item.reconcilePolicy}/${item.reconcilePolicyIfExists}*`
      : item.reconcilePolicy,
    item.outcome,
    item.whatIfUnknown === undefined ? String(item.changes.length) : '?',
    ...(wide ? [printable(item.armId ?? '-'), printable(item.reason)] : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const colour = (outcome: string, text: string) =>
    outcome === 'adopt-manage' || outcome === 'rejected'
      ? palette.red(text)
      : outcome === 'unknown' || outcome.startsWith('adopt-') || outcome === 'skip-missing'
        ? palette.yellow(text)
        : text;
  const out = [line(header)];
  report.items.forEach((item, i) => {
    out.push(colour(item.outcome, line(rows[i] ?? [])));
    if (wide)
      for (const c of item.changes)
        out.push(
          `    ${printable(c.path)}: ${printable(JSON.stringify(c.from) ?? '')} -> ${printable(JSON.stringify(c.to) ?? '')}${c.orderOnly ? ' (same elements, in another order)' : ''}${c.immutable ? ' (cannot change after creation: likely to fail)' : ''}`,
        );
  });
  for (const w of report.warnings) out.push(palette.yellow(`warning: ${printable(w)}`));
  const counts = Object.entries(report.summary.byOutcome)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  out.push(
    `${report.summary.total} resources: ${counts || 'none'}; ${report.summary.passedOver} non-ASO objects passed over`,
  );
  if (report.items.some((i) => i.proposed))
    out.push('* reconcile-policy-if-exists is the proposal in seed 001; the released operator ignores it');
  return `${out.join('\n')}\n`;
};
