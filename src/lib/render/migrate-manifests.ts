import type { OutputFormat } from '../cli/output-flags.ts';
import type { ManifestOutcome, ManifestReport } from '../migrate/manifests/run.ts';
import { printResult } from './output.ts';
import { printable } from './printable.ts';

/**
 * Prints a `migrate -f` run. With `-o json|yaml` the report is the whole of stdout; otherwise stdout
 * carries only the converted YAML (or nothing, when it went to files), so that it can be piped to
 * `kubectl apply -f -`, and the lines for a person go to stderr.
 */
export async function printManifestOutcome(
  outcome: ManifestOutcome,
  format: OutputFormat,
  color: boolean,
): Promise<void> {
  if (format === 'json' || format === 'yaml') {
    await printResult(outcome.report, format, () => '', { color });
    return;
  }
  process.stdout.write(outcome.stdout);
  for (const line of manifestLines(outcome.report)) process.stderr.write(`${line}\n`);
}

/**
 * What `migrate -f` tells a person on stderr while stdout carries the YAML: one line per object that
 * changes or whose kind has no version to move to, the warnings (unverified renames, values carried over unchecked, dropped values), and a count.
 */
export function manifestLines(report: ManifestReport): string[] {
  const lines: string[] = [];
  for (const object of report.objects) {
    if (object.how === 'unchanged') {
      if (object.noTarget)
        lines.push(
          `${printable(object.source)} ${printable(object.kind)}/${printable(object.name)}: left at ${printable(object.from)} (${printable(object.note ?? '')})`,
        );
      continue;
    }
    lines.push(
      `${printable(object.source)} ${printable(object.kind)}/${printable(object.name)}: ${printable(object.from)} -> ${printable(object.to)} (${object.how})`,
    );
  }
  for (const warning of report.warnings) lines.push(`warning: ${printable(warning)}`);
  const changedObjects = report.objects.filter((object) => object.how !== 'unchanged').length;
  const changedFiles = report.files.filter((file) => file.changed).length;
  const written = report.files.filter((file) => file.writtenTo !== undefined).length;
  lines.push(
    `${changedObjects} of ${report.objects.length} ASO objects converted to ${printable(report.target)} in ${changedFiles} of ${report.files.length} files${written > 0 ? `; ${written} files written` : ''}`,
  );
  return lines;
}
