/**
 * `kubectl aso status` as a user runs it against the operator's plane, read back into what it reported:
 * the JSON report as printed, and the table's rows by column, so that a test compares both with what the
 * operator wrote on the object.
 */
import type { StatusItem, StatusReport } from '../../src/lib/status/report.ts';
import { type CliRun, runCli } from '../fixtures/cli.ts';

/** One run of `status` with `-o json`: its exit code, the parsed report, and stderr. */
export interface JsonStatus {
  readonly code: number;
  readonly report: StatusReport;
  readonly stderr: string;
}

/** Runs `kubectl aso status ARGS -o json` against the plane behind `kubeconfig`. */
export async function statusJson(kubeconfig: string, args: string[]): Promise<JsonStatus> {
  const run = await runCli(['status', ...args, '-o', 'json'], { KUBECONFIG: kubeconfig });
  return { code: run.code, report: parseReport(run), stderr: run.stderr };
}

function parseReport(run: CliRun): StatusReport {
  try {
    return JSON.parse(run.stdout) as StatusReport;
  } catch {
    throw new Error(`status printed no JSON report (exit ${run.code}): ${run.stdout}${run.stderr}`);
  }
}

/** The item named `name` in a report; a test that expects it fails with the names that were there. */
export function itemNamed(report: StatusReport, name: string): StatusItem {
  const found = report.items.find((item) => item.name === name);
  if (!found)
    throw new Error(`no ${name} in the report: ${report.items.map((item) => item.name).join(', ')}`);
  return found;
}

/** A table printed by `status -o wide`: rows by header, and the summary lines under it. */
export interface StatusTable {
  readonly code: number;
  readonly rows: Record<string, string>[];
  /** The lines after the table's blank line: counts by state, top reasons, counts by kind. */
  readonly summary: string[];
}

/**
 * Runs `kubectl aso status ARGS -o wide` (every cell whole) and splits the table at its header's column
 * starts, which is where the table pads every row's cells to.
 */
export async function statusTable(kubeconfig: string, args: string[]): Promise<StatusTable> {
  const run = await runCli(['status', ...args, '-o', 'wide'], { KUBECONFIG: kubeconfig });
  const lines = run.stdout.split('\n');
  const headerAt = lines.findIndex((line) => line.startsWith('NAMESPACE'));
  if (headerAt < 0) throw new Error(`status printed no table (exit ${run.code}): ${run.stdout}${run.stderr}`);
  const header = lines[headerAt]!;
  const columns = [...header.matchAll(/\S+/g)].map((match) => ({ name: match[0], start: match.index }));
  const blank = lines.indexOf('', headerAt);
  const rows = lines
    .slice(headerAt + 1, blank)
    .map((line) =>
      Object.fromEntries(
        columns.map((column, i) => [column.name, line.slice(column.start, columns[i + 1]?.start).trim()]),
      ),
    );
  return { code: run.code, rows, summary: lines.slice(blank + 1).filter(Boolean) };
}
