import type { HopSummary, UpgradeCheckReport } from '../upgrade/check.ts';
import type { ManifestFinding } from '../upgrade/manifest-findings.ts';
import type { StorageMoveFinding } from '../upgrade/storage-moves.ts';
import type { RenderContext } from './output.ts';
import { printable } from './printable.ts';
import { renderTable } from './table.ts';

function hopLine(hop: HopSummary): string {
  const removed = Object.keys(hop.removedVersions).length;
  const spans =
    hop.spans.length > 0 ? ` (spans ${hop.spans.join(', ')}, which kubectl-aso has no catalog of)` : '';
  return (
    `${hop.from} -> ${hop.to}${spans}: ${removed} kinds lose a version, ${hop.storageMoves} move their storage ` +
    `version, ${hop.propertyChanges} lose or retype a property, ${hop.addedKinds} kinds are new; ` +
    (hop.operatorCleansStoredVersions
      ? `ASO ${hop.to} clears moved-away stored versions itself (with --crd-management auto)`
      : `ASO ${hop.to} leaves moved-away stored versions for you to clear`)
  );
}

function removedVersionLines(hop: HopSummary): string[] {
  return Object.entries(hop.removedVersions).map(
    ([kind, versions]) => `  ${kind}: ${versions.join(', ')} removed`,
  );
}

/** What the cluster runs, in a line or two; or that it was not read. */
function clusterLines(report: UpgradeCheckReport): string[] {
  const cluster = report.cluster;
  if (cluster === undefined) return ['Cluster: not read (--from names the installed release)'];
  const { installed } = cluster;
  const from =
    installed.releaseFrom === 'image' ? "the operator's image" : "the CRDs' app.kubernetes.io/version";
  const deployment = installed.deployment
    ? `operator ${installed.deployment.namespace}/${installed.deployment.name}, --crd-management ${installed.deployment.crdManagement}` +
      (installed.deployment.crdPatterns.length > 0
        ? `, --crd-pattern ${installed.deployment.crdPatterns.join(';')}`
        : '')
    : `operator Deployment not read: ${installed.deploymentUnread ?? 'none found'}`;
  return [
    `Cluster: ASO ${installed.release} (from ${from}), ${installed.crds} ASO CRDs; ${deployment}`,
    `CRDs whose stored versions an upgrade hop removes: ${cluster.storedVersions.length}; objects last applied at a removed version: ${cluster.appliedVersions.reduce((n, f) => n + f.objects, 0)}`,
    storageMovesLine(cluster.storageMoves),
  ];
}

/** The storage moves in one line: how many, and how many the operator clears itself. */
function storageMovesLine(moves: readonly StorageMoveFinding[]): string {
  const byOperator = moves.filter((m) => m.by === 'operator').length;
  return (
    `CRDs whose storage version a hop moves: ${moves.length}; the operator clears the old stored version of ` +
    `${byOperator} itself, ${moves.length - byOperator} need kubectl aso migrate after their hop` +
    (moves.length > byOperator ? ' (listed below)' : '')
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
  out.push('', ...clusterLines(report));
  if (report.cluster !== undefined && report.cluster.storedVersions.length > 0) {
    const rows = report.cluster.storedVersions.map((finding) => [
      printable(finding.crd),
      context.palette.red(printable(finding.versions.join(', '))),
      String(finding.objects),
      printable(finding.fix),
    ]);
    const columns = [
      { header: 'CRD', shrinkable: true },
      { header: 'STORED AT A REMOVED VERSION' },
      { header: 'OBJECTS' },
      { header: 'FIX', flexible: true },
    ];
    out.push(renderTable(columns, rows, context.width).trimEnd());
  }
  const moves = (report.cluster?.storageMoves ?? []).filter((m) => context.wide || m.by === 'migrate');
  if (moves.length > 0) {
    out.push('', 'Storage moves: who clears the old stored version after each hop:');
    const rows = moves.map((move) => [
      printable(move.hop),
      printable(move.crd),
      printable(`${move.from} -> ${move.to}`),
      move.by === 'operator' ? 'operator' : context.palette.yellow('you'),
      printable(move.how),
    ]);
    const columns = [
      { header: 'HOP' },
      { header: 'CRD', shrinkable: true },
      { header: 'STORAGE' },
      { header: 'BY' },
      { header: 'HOW', flexible: true },
    ];
    out.push(renderTable(columns, rows, context.width).trimEnd());
  }
  if (report.cluster !== undefined && report.cluster.appliedVersions.length > 0) {
    out.push(
      '',
      'Warnings: objects last applied at a version the upgrade removes (they work until reapplied):',
    );
    const rows = report.cluster.appliedVersions.map((finding) => [
      printable(finding.namespace),
      printable(finding.kind),
      context.palette.yellow(printable(finding.version)),
      String(finding.objects),
      printable(finding.names.join(', ') + (finding.objects > finding.names.length ? ', ...' : '')),
    ]);
    const columns = [
      { header: 'NAMESPACE', shrinkable: true },
      { header: 'KIND', shrinkable: true },
      { header: 'APPLIED AT' },
      { header: 'OBJECTS' },
      { header: 'NAMES', flexible: true },
    ];
    out.push(renderTable(columns, rows, context.width).trimEnd());
  }
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
  out.push('', ...clusterLines(report).map((line) => cell(line)));
  if (report.cluster !== undefined && report.cluster.storedVersions.length > 0) {
    out.push('', '| CRD | Stored at a removed version | Objects | Fix |', '|---|---|---:|---|');
    for (const finding of report.cluster.storedVersions) {
      out.push(
        `| ${cell(finding.crd)} | ${cell(finding.versions.join(', '))} | ${finding.objects} | \`${cell(finding.fix)}\` |`,
      );
    }
  }
  const moves = (report.cluster?.storageMoves ?? []).filter((m) => m.by === 'migrate');
  if (moves.length > 0) {
    out.push('', '| Hop | CRD | Storage | After the hop |', '|---|---|---|---|');
    for (const move of moves) {
      out.push(
        `| ${cell(move.hop)} | ${cell(move.crd)} | ${cell(`${move.from} -> ${move.to}`)} | ${cell(move.how)} |`,
      );
    }
  }
  if (report.cluster !== undefined && report.cluster.appliedVersions.length > 0) {
    out.push('', '| Namespace | Kind | Applied at (removed) | Objects | Names |', '|---|---|---|---:|---|');
    for (const finding of report.cluster.appliedVersions) {
      out.push(
        `| ${cell(finding.namespace)} | ${cell(finding.kind)} | ${cell(finding.version)} | ${finding.objects} | ${cell(finding.names.join(', '))} |`,
      );
    }
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
