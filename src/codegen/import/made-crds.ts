import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The wrapper that makes a group's CRDs (`crd-maker/make-crds.sh`). Found beside this file when the
 * generator runs from `src/`, and in `src/` from the compiled copy under `dist/src/`, which holds no shell
 * scripts.
 */
export const makeCrdsScript: string = (() => {
  const candidates = [
    './crd-maker/make-crds.sh',
    '../../../../src/codegen/import/crd-maker/make-crds.sh',
  ].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
  return candidates.find((path) => existsSync(path)) ?? (candidates[0] as string);
})();

/**
 * Raised when the operator's CRDs cannot be made because Go is not installed: the CRDs come from
 * controller-gen over the operator's Go module, so this is the one prerequisite a user must add.
 */
export class CrdMakerGoMissing extends Error {
  constructor() {
    super(
      "making the operator's CRDs needs the Go toolchain (go on PATH): install Go, or keep using a folder of the operator's CRDs",
    );
    this.name = 'CrdMakerGoMissing';
  }
}

/** What step of making a group's CRDs failed, from `make-crds.sh`'s exit code. */
export type CrdMakingStep = 'arguments' | 'build' | 'download' | 'generate' | 'unknown';

const stepByExitCode: Readonly<Record<number, CrdMakingStep>> = {
  2: 'arguments',
  4: 'build',
  5: 'download',
  6: 'generate',
};

/**
 * Raised when making a group's CRDs fails for any reason but a missing Go: names the version, the group
 * and the step, and carries the wrapper's last lines of stderr (a compile error, an unknown version, a
 * group that is not in the module), so the message says what to fix instead of only an exit code.
 */
export class CrdMakingFailed extends Error {
  readonly asoVersion: string;
  readonly group: string;
  readonly step: CrdMakingStep;
  readonly stderr: string;

  constructor(asoVersion: string, group: string, step: CrdMakingStep, stderr: string) {
    const tail = stderr.trim().split('\n').slice(-5).join('\n');
    super(`making the CRDs of ASO ${asoVersion} group ${group} failed (${step})${tail ? `:\n${tail}` : ''}`);
    this.name = 'CrdMakingFailed';
    this.asoVersion = asoVersion;
    this.group = group;
    this.step = step;
    this.stderr = stderr;
  }
}

/** Where the progress lines of a build go; stderr unless a caller wants them elsewhere (or nowhere). */
export interface MadeCrdsOptions {
  readonly progress?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The folder holding the CRDs of one API group (`resources`, `network.frontdoor`: a folder under the
 * module's `api/`) of ASO `asoVersion`, one YAML per CRD named as the operator names them
 * (`resources.azure.com_resourcegroups.yaml`). Made from the operator's Go module the way its build makes
 * them, so the import needs no copy of the operator's released CRDs; made once per version and group, then
 * read from `~/.cache/kubectl-aso/crds/`. Asynchronous: a cold first call builds the tool (tens of seconds)
 * and downloads the module when it is not in the Go module cache.
 */
export function madeCrdsDir(
  asoVersion: string,
  group: string,
  options: MadeCrdsOptions = {},
): Promise<string> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  return new Promise<string>((resolve, reject) => {
    const child = spawn('bash', [makeCrdsScript, asoVersion, group], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      for (const line of text.split('\n')) if (line) progress(line);
    });
    child.on('error', (error) => reject(new CrdMakingFailed(asoVersion, group, 'unknown', error.message)));
    child.on('close', (code) => {
      const dir = stdout.trim().split('\n').pop() ?? '';
      if (code === 0 && dir) resolve(dir);
      else if (code === 3) reject(new CrdMakerGoMissing());
      else reject(new CrdMakingFailed(asoVersion, group, stepByExitCode[code ?? -1] ?? 'unknown', stderr));
    });
  });
}
