import type { HopSummary, UpgradeCheckReport } from '../upgrade/check.ts';
import type { ManifestFinding } from '../upgrade/manifest-findings.ts';
import type { RenderContext } from './output.ts';
import { printable } from './printable.ts';
import { renderTable } from './table.ts';

function hopLine(hop: HopSummary): string {
  const removed = Object.keys(hop.removedVersions).length;
  const spans =
    hop.spans.length > 0 ? ` (spans ${hop.spans.join(', ')}, which kubectl-aso has no catalog of)` : '';
  return (
    `${hop.from} -> ${hop.to}${spans}: ${removed} kinds lose a version, ${hop.storageMoves} move their storage ` +
    `version, ${hop.propertyChanges} lose or retype a property, ${hop.addedKinds} kinds are new`
  );
}

function removedVersionLines(hop: HopSummary): string[] {
  return Object.entries(hop.removedVersions).map(
    ([kind, versions]) => `  ${kind}: ${versions.join(', ')} removed`,
  );
}

function verdict(report: UpgradeCheckReport): string {
  if (report.blocking > 0) return `Not ready: ${report.blocking} blocking findings, each with its fix.`;
  if (report.warnings > 0) return `Ready, with ${report.warnings} warnings.`;
  return 'Ready: nothing checked breaks in this upgrade.';
}

function where(finding: ManifestFinding): string {
  return `${finding.file}${finding.line !== undefined ? `:${finding.line}` : ''}`;
}

/** The finding's detail, with the object's own path where it is not the catalog's (a list index, a map key). */
function what(finding: ManifestFinding): string {
  return finding.path === undefined || finding.detail.includes(finding.path)
    ? finding.detail
    : `${finding.detail}: ${finding.path}`;
}

function values(finding: ManifestFinding): string {
  if (finding.values === 'lost') return 'the rewrite drops values: migrate -f names them';
  if (finding.values === 'unknown') return 'kubectl-aso cannot convert it';
  return finding.values === 'kept' ? 'every value kept' : '';
}

/**
 * The report for a person: each hop in a line, with the kinds that lose a version; then every manifest
 * finding as a row (where, object, what, the fix); then the verdict.
 */
export function upgradeCheckView(report: UpgradeCheckReport, context: RenderContext): string {
  const out: string[] = [`Upgrade ${report.from} -> ${report.to}`];
  for (const hop of report.hops) out.push(hopLine(hop), ...removedVersionLines(hop));
  if (report.manifests !== undefined) {
    const { objects, findings } = report.manifests;
    out.push('', `Manifests: ${objects} ASO objects, ${findings.length} findings`);
    if (findings.length > 0) {
      const rows = findings.map((finding) => [
        printable(where(finding)),
        printable(finding.object),
        context.palette.red(printable(what(finding))),
        printable(finding.fix),
        ...(context.wide ? [values(finding)] : []),
      ]);
      const columns = [
        { header: 'WHERE', shrinkable: true },
        { header: 'OBJECT', shrinkable: true },
        { header: 'WHAT BREAKS', flexible: true },
        { header: 'FIX', flexible: true },
        ...(context.wide ? [{ header: 'VALUES' }] : []),
      ];
      out.push(renderTable(columns, rows, context.width).trimEnd());
    }
  } else out.push('', 'Manifests: none checked (-f)');
  out.push('', verdict(report));
  return `${out.join('\n')}\n`;
}

/** A Markdown cell: pipes escaped, line breaks flattened, so that a value cannot break the table. */
function cell(text: string): string {
  return printable(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The report as Markdown, for a pull-request comment: the hops, a findings table and the verdict. */
export function upgradeCheckMarkdown(report: UpgradeCheckReport): string {
  const out: string[] = [`### Upgrade check: ASO ${report.from} -> ${report.to}`, ''];
  for (const hop of report.hops) {
    out.push(`- ${cell(hopLine(hop))}`);
    for (const line of removedVersionLines(hop)) out.push(`  - ${cell(line.trim())}`);
  }
  if (report.manifests !== undefined && report.manifests.findings.length > 0) {
    out.push('', '| Where | Object | What breaks | Fix | Values |', '|---|---|---|---|---|');
    for (const finding of report.manifests.findings) {
      out.push(
        `| ${cell(where(finding))} | ${cell(finding.object)} | ${cell(what(finding))} | \`${cell(finding.fix)}\` | ${cell(values(finding))} |`,
      );
    }
  } else if (report.manifests !== undefined)
    out.push('', `${report.manifests.objects} ASO objects checked: no findings.`);
  out.push('', `**${verdict(report)}**`);
  return `${out.join('\n')}\n`;
}
