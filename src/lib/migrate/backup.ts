import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { writeAtomically } from '../atomic-write.ts';
import { InvalidInput } from '../errors.ts';
import type { KubeObject } from '../kube/list.ts';
import { makeFolder } from '../make-folder.ts';

/**
 * `--backup-dir` cannot be written: the run stops before the write whose backup failed (resumable), since
 * a write without the backup the user asked for is what the flag exists to prevent.
 */
export class BackupFailed extends InvalidInput {
  constructor(file: string, error: unknown) {
    super(
      `--backup-dir ${file}`,
      `cannot write the backup (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/**
 * Checks before the first write (and before the cluster is touched) that the backup folder can be created
 * and written, so a run never starts without it. The folder is made one level at a time: Node's recursive
 * mkdir never returns where the kernel answers ENOENT under an existing parent (`/proc/x`).
 */
export function checkBackupDir(dir: string): void {
  const probe = path.join(dir, `.kubectl-aso-probe-${process.pid}`);
  try {
    makeFolder(dir);
    writeAtomically(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    throw new BackupFailed(dir, error);
  }
}

/**
 * `--backup-dir`: each object as read (at the version the rewrite reads it), written as YAML before the
 * first write of it, at `DIR/<crd>/<namespace>/<name>.yaml` (`_cluster` for a cluster-scoped object). A
 * file already there is kept: after a resumed run or a redone batch, the file from the first run holds the
 * object as it was before any write, and a later copy would hold the rewritten one.
 */
export function backupWriter(dir: string, crd: string): (object: KubeObject) => Promise<void> {
  return async (object) => {
    const file = backupPath(dir, crd, object.metadata.namespace, object.metadata.name);
    if (existsSync(file)) return;
    try {
      writeAtomically(file, stringify(object, { lineWidth: 0 }));
    } catch (error) {
      throw new BackupFailed(file, error);
    }
  };
}

/** Where the backup of one object is written. */
export function backupPath(dir: string, crd: string, namespace: string | undefined, name: string): string {
  return path.join(dir, safe(crd), safe(namespace || '_cluster'), `${safe(name)}.yaml`);
}

/** Kubernetes names cannot hold a slash or be `..`, but a path built from cluster data is checked anyway. */
function safe(part: string): string {
  if (part === '' || part === '.' || part === '..' || /[/\\\0]/.test(part)) {
    return encodeURIComponent(part).replace(/\./g, '%2E');
  }
  return part;
}
