import type { CrdOutcome, MigrationReport } from '../migrate/report.ts';
import type { RenderContext } from './output.ts';
import { printable } from './printable.ts';
import { type Column, renderTable } from './table.ts';

/** The summary table's columns; REASON gives up width first, then the CRD name. */
export const migrationColumns: Column[] = [
  { header: 'CRD', shrinkable: true },
  { header: 'OUTCOME' },
  { header: 'STRATEGY' },
  { header: 'STORAGE', shrinkable: true },
  { header: 'STORED BEFORE', shrinkable: true },
  { header: 'STORED AFTER', shrinkable: true },
  { header: 'OBJECTS' },
  { header: 'MIGRATED' },
  { header: 'CURRENT' },
  { header: 'DELETED' },
  { header: 'FAILED' },
  { header: 'REASON', flexible: true },
];

function colour(context: RenderContext, outcome: CrdOutcome): (text: string) => string {
  switch (outcome) {
    case 'finished':
    case 'clean':
      return context.palette.green;
    case 'planned':
      return context.palette.cyan;
    case 'interrupted':
    case 'notStarted':
    case 'skipped':
      return context.palette.yellow;
    case 'unavailable':
    case 'incomplete':
      return context.palette.red;
  }
}

/**
 * The summary at the end of a run (or the plan, with `--dry-run`): one row per CRD, then each object
 * that failed with its reason, then the warnings. Text from the cluster is made printable.
 */
export function migrationTable(report: MigrationReport, context: RenderContext): string {
  const rows = report.crds.map((crd) => [
    printable(crd.name),
    colour(context, crd.outcome)(crd.outcome),
    crd.strategy,
    printable(crd.storageVersion),
    printable(crd.storedVersionsBefore.join(',')),
    printable(crd.storedVersionsAfter.join(',')),
    crd.objectsToCheck === undefined ? '?' : String(crd.objectsToCheck),
    String(crd.migrated),
    String(crd.alreadyCurrent),
    String(crd.deleted),
    String(crd.failed.length),
    printable(crd.reason ?? ''),
  ]);
  const parts = [
    `${report.dryRunMode === 'server' ? 'server-side dry run (writes sent with dryRun=All, nothing stored)' : report.dryRun ? 'plan (dry run, nothing written)' : 'migration'} to ${printable(report.target)}: ${report.crds.length} CRDs`,
    report.crds.length > 0 ? renderTable(migrationColumns, rows, context.width) : 'no ASO CRDs selected',
  ];
  const failures = report.crds.flatMap((crd) =>
    crd.failed.map(
      (failed) =>
        `  ${printable(crd.name)} ${printable(failed.namespace ? `${failed.namespace}/` : '')}${printable(failed.name)}: ${printable(failed.reason)}`,
    ),
  );
  if (failures.length > 0) parts.push(`failed objects:\n${failures.join('\n')}`);
  const previews = report.crds.flatMap((crd) =>
    (crd.preview ?? []).map((object) => {
      const name = `  ${printable(crd.name)} ${printable(object.namespace ? `${object.namespace}/` : '')}${printable(object.name)}`;
      if ('failed' in object) return `${name}: would fail: ${printable(object.failed)}`;
      const bags = object.propertyBag.map(
        (bag) => `${printable(bag.path)}.$propertyBag ${printable(JSON.stringify(bag.entries))}`,
      );
      return `${name} (stored at ${printable(object.storedAt.join(' or '))}): ${bags.length > 0 ? bags.join('; ') : 'nothing in $propertyBag'}`;
    }),
  );
  if (previews.length > 0) parts.push(`client-side conversion, per object:\n${previews.join('\n')}`);
  for (const warning of report.warnings) parts.push(`warning: ${printable(warning)}`);
  return `${parts.join('\n')}\n`;
}
