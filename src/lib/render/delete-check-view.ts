import type { CascadeItem, DeleteCheckReport } from '../deletion/report.ts';
import type { RenderContext } from './output.ts';
import { printable } from './printable.ts';
import { renderTable } from './table.ts';

function label(item: Pick<CascadeItem, 'kind' | 'name'>): string {
  return printable(`${item.kind}/${item.name}`);
}

function azureText(item: CascadeItem, byId: Map<string, CascadeItem>): string {
  switch (item.azure) {
    case 'deletes':
      return 'deleted';
    case 'deleted-with-owner': {
      const owner = item.via ? byId.get(item.via) : undefined;
      return `deleted with ${owner ? label(owner) : 'its owner'}`;
    }
    case 'keeps':
      return 'kept';
    case 'none':
      return 'nothing (no status.id)';
  }
}

/**
 * The report for a person: the cascade as a table (object, effective policy and where it comes from, what
 * happens in Azure, ARM ID), then each resource group deleted in Azure with the resources in it that no
 * ASO object declares first, counted and said plainly, then those that are declared.
 */
export function deleteCheckView(report: DeleteCheckReport, context: RenderContext): string {
  if (report.cascade.length === 0) return 'Nothing to delete: no ASO resources found.\n';
  const byId = new Map(report.cascade.map((item) => [item.id, item]));
  const namespaces = new Set(report.cascade.map((item) => item.namespace)).size > 1;
  const rows = report.cascade.map((item) => [
    ...(namespaces ? [printable(item.namespace ?? '')] : []),
    label(item),
    `${item.policy} (${item.policySource})`,
    item.azure === 'keeps' || item.azure === 'none'
      ? azureText(item, byId)
      : context.palette.red(azureText(item, byId)),
    printable(item.armId ?? ''),
  ]);
  const columns = [
    ...(namespaces ? [{ header: 'NAMESPACE' }] : []),
    { header: 'OBJECT', shrinkable: true },
    { header: 'POLICY' },
    { header: 'IN AZURE' },
    { header: 'ARM ID', flexible: true },
  ];
  const out = [renderTable(columns, rows, context.width).trimEnd()];
  for (const group of report.resourceGroups) {
    const owner = byId.get(group.object);
    out.push(
      '',
      `Resource group ${printable(group.armId)} (${owner ? label(owner) : ''}) would be deleted in Azure:`,
    );
    if (group.listing === 'not-found') {
      out.push('  it is not in Azure: nothing else goes with it');
      continue;
    }
    if (group.listing !== 'listed') {
      out.push(`  could not be listed (${group.listing}): ${printable(group.message)}`);
      continue;
    }
    const undeclared = group.resources.filter((resource) => resource.declaredBy === null);
    const declared = group.resources.filter((resource) => resource.declaredBy !== null);
    if (undeclared.length > 0) {
      out.push(
        context.palette.red(
          `  ${undeclared.length} ${undeclared.length === 1 ? 'resource' : 'resources'} in it that no ASO object declares would be lost:`,
        ),
      );
      for (const resource of undeclared)
        out.push(`    ${printable(resource.type)}  ${printable(resource.name)}`);
    } else {
      out.push('  every resource in it is declared by an ASO object');
    }
    for (const resource of declared) {
      out.push(`    declared: ${printable(resource.type)}  ${printable(resource.name)}`);
    }
  }
  out.push(
    '',
    report.undeclared > 0
      ? context.palette.red(
          `${report.undeclared} Azure ${report.undeclared === 1 ? 'resource' : 'resources'} that no ASO object declares would be deleted.`,
        )
      : 'No Azure resource that no ASO object declares would be deleted.',
  );
  return `${out.join('\n')}\n`;
}
