import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The Node release inside the executable, pinned: a new Node is a change to review (startup, size, SEA
 * format), not something a rebuild picks up by itself.
 */
export const seaNodeVersion = '24.21.0';

/** A platform the executable can be built for, in the names the npm registry and krew use. */
export interface TargetPlatform {
  /** krew's `os` / Go's GOOS. */
  os: 'linux' | 'darwin' | 'windows';
  /** krew's `arch` / Go's GOARCH. */
  arch: 'amd64' | 'arm64';
}

/**
 * The npm package holding Node's binary for a platform. The registry's `node` package installs by running
 * `npm install node-<os>-<arch>@<version>` for the machine it is on; asking for that package directly gets
 * the same binary for any platform, from the same registry, checked by npm against its integrity hash.
 */
export function nodePackageFor(platform: TargetPlatform, version = seaNodeVersion): string {
  const os = platform.os === 'windows' ? 'win' : platform.os;
  const arch = platform.arch === 'amd64' ? 'x64' : 'arm64';
  return `node-${os}-${arch}@${version}`;
}

/** Where fetched Node binaries are kept between builds (beside the control plane's cache). */
export function packageCacheDir(): string {
  const base =
    process.env.KUBECTL_ASO_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kubectl-aso');
  return join(base, 'node-sea');
}

/**
 * The path of the Node binary for `platform`, fetched with `npm pack` and unpacked into the cache the first
 * time; later builds reuse it. The unpacked folder appears whole or not at all (renamed into place).
 */
export function ensureNodeBinary(platform: TargetPlatform, version = seaNodeVersion): string {
  const spec = nodePackageFor(platform, version);
  const dir = join(packageCacheDir(), spec.replace('@', '-'));
  const binary = join(dir, 'package', 'bin', platform.os === 'windows' ? 'node.exe' : 'node');
  if (existsSync(binary)) return binary;
  mkdirSync(packageCacheDir(), { recursive: true });
  const work = mkdtempSync(join(packageCacheDir(), '.fetch-'));
  try {
    process.stderr.write(`package: fetching ${spec} from the npm registry into ${packageCacheDir()}\n`);
    execFileSync('npm', ['pack', spec, '--silent'], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] });
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', unpacked, 'package/bin', 'package/LICENSE'], {
      stdio: 'inherit',
    });
    rmSync(dir, { recursive: true, force: true });
    renameSync(unpacked, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!existsSync(binary)) throw new Error(`${spec} holds no ${binary}`);
  return binary;
}
