import { AsoError } from '../errors.ts';
import type { ExitCodeName } from '../exit-codes.ts';
import type { KubeconfigOptions } from '../kube/kubeconfig.ts';

/** What `kubectl aso version` reports: the plugin, and the server when it could be asked. */
export interface VersionReport {
  client: { version: string; node: string; platform: string };
  /** Absent with --client; null with `serverError` when the cluster could not be asked. */
  server?: { gitVersion: string; platform: string } | null;
  serverError?: string;
}

/** A {@link VersionReport} and, when the server could not be asked, the error's exit code. */
export interface VersionOutcome {
  report: VersionReport;
  failure?: ExitCodeName;
}

/**
 * Collects the plugin's version and, unless `clientOnly`, the API server's `/version`. A cluster that
 * cannot be reached is reported in the result, not thrown: the client version is still worth printing,
 * and the command then exits with the error's code, as `kubectl version` does.
 */
export async function collectVersions(
  pluginVersion: string,
  clientOnly: boolean,
  options: KubeconfigOptions,
): Promise<VersionOutcome> {
  const client = {
    version: pluginVersion,
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
  };
  if (clientOnly) return { report: { client } };
  try {
    const { connect } = await import('../kube/connect.ts');
    const cluster = await connect(options);
    const info = await cluster.request<{ gitVersion: string; platform: string }>({
      path: '/version',
      subject: { verb: 'get', resource: '/version' },
    });
    return { report: { client, server: { gitVersion: info.gitVersion, platform: info.platform } } };
  } catch (error) {
    if (!(error instanceof AsoError)) throw error;
    const serverError = error.hint ? `${error.message}; ${error.hint}` : error.message;
    return { report: { client, server: null, serverError }, failure: error.exit };
  }
}

/** The human text of a {@link VersionReport}, as `kubectl version` prints its own. */
export function versionText(report: VersionReport): string {
  const lines = [
    `Client Version: kubectl-aso ${report.client.version} (node ${report.client.node}, ${report.client.platform})`,
  ];
  if (report.server) lines.push(`Server Version: ${report.server.gitVersion}`);
  return lines.join('\n');
}
