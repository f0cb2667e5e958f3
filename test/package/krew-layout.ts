import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join, normalize } from 'node:path';

/** The parts of a krew plugin manifest this project writes and krew reads. */
export interface KrewPlatform {
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  uri?: string;
  sha256?: string;
  files?: Array<{ from?: string; to?: string }>;
  bin?: string;
}

/** A krew plugin manifest as parsed from YAML. */
export interface KrewManifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
  spec?: {
    version?: string;
    homepage?: string;
    shortDescription?: string;
    description?: string;
    caveats?: string;
    platforms?: KrewPlatform[];
  };
}

/**
 * What krew would refuse in a manifest named `name`, by the rules of its own validation (krew itself cannot
 * be fetched here): the API version and kind, a safe name equal to the file's, a one-line short description,
 * a `v`-prefixed semantic version, and for each platform a URI, a sha256 of 64 hex digits, a bin, complete
 * `files` rules and a selector on `os` and `arch` only. Empty when krew would accept it.
 */
export function krewProblems(name: string, manifest: KrewManifest): string[] {
  const problems: string[] = [];
  const spec = manifest.spec ?? {};
  if (manifest.apiVersion !== 'krew.googlecontainertools.github.com/v1alpha2') problems.push('apiVersion');
  if (manifest.kind !== 'Plugin') problems.push('kind');
  if (!/^[\w-]+$/.test(name) || manifest.metadata?.name !== name) problems.push('metadata.name');
  if (!spec.shortDescription || /[\r\n]/.test(spec.shortDescription)) problems.push('shortDescription');
  if (!/^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(spec.version ?? ''))
    problems.push('version');
  if (!spec.platforms || spec.platforms.length === 0) problems.push('platforms');
  for (const [index, platform] of (spec.platforms ?? []).entries()) {
    const at = `platforms[${index}]`;
    if (!platform.uri) problems.push(`${at}.uri`);
    if (!/^[a-f0-9]{64}$/.test(platform.sha256 ?? '')) problems.push(`${at}.sha256`);
    if (!platform.bin) problems.push(`${at}.bin`);
    if (platform.files && (platform.files.length === 0 || platform.files.some((op) => !op.from || !op.to))) {
      problems.push(`${at}.files`);
    }
    const labels = platform.selector?.matchLabels ?? {};
    const keys = Object.keys(labels);
    if (keys.length === 0 || keys.some((key) => key !== 'os' && key !== 'arch'))
      problems.push(`${at}.selector`);
  }
  return problems;
}

/** Turns a krew `from` pattern (a path glob: `*`, `?`) into a test on paths relative to the unpacked archive. */
function globTest(pattern: string): (path: string) => boolean {
  const source = normalize(pattern)
    .split('')
    .map((char) =>
      char === '*' ? '[^/]*' : char === '?' ? '[^/]' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  const regexp = new RegExp(`^${source}$`);
  return (path) => regexp.test(path);
}

/**
 * Installs an archive as krew lays a plugin out: unpacked into a scratch folder, each `files` rule moving
 * what its `from` matches into `$KREW_ROOT/store/<name>/<version>/<to>`, and `$KREW_ROOT/bin/kubectl-<name>`
 * a symbolic link to the platform's `bin` there. Returns the path of the link.
 */
export function installAsKrewDoes(krewRoot: string, manifest: KrewManifest, archive: string): string {
  const name = manifest.metadata?.name ?? '';
  const version = manifest.spec?.version ?? '';
  const platform = manifest.spec?.platforms?.[0] ?? {};
  const unpacked = mkdtempSync(join(krewRoot, 'download-'));
  execFileSync('tar', ['-xzf', archive, '-C', unpacked]);
  const installDir = join(krewRoot, 'store', name, version);
  mkdirSync(installDir, { recursive: true });
  const everything = readdirSync(unpacked, { recursive: true, encoding: 'utf8' });
  for (const rule of platform.files ?? [{ from: '*', to: '.' }]) {
    const matches = globTest(rule.from ?? '');
    for (const path of everything.filter(matches)) {
      const target = join(installDir, rule.to ?? '.');
      mkdirSync(target, { recursive: true });
      renameSync(join(unpacked, path), join(target, path.split('/').pop() ?? path));
    }
  }
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(join(krewRoot, 'bin'), { recursive: true });
  const link = join(krewRoot, 'bin', `kubectl-${name.replaceAll('-', '_')}`);
  symlinkSync(join(installDir, normalize(platform.bin ?? '')), link);
  return link;
}
