import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { TargetPlatform } from './package-node.ts';

/** The fuse Node's binary carries to say "a SEA blob is injected"; fixed by Node for every release. */
const seaFuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Turns the bundle into a Node single executable application: the preparation blob is made by the target's
 * own Node (`--experimental-sea-config`), so that the V8 code cache in it matches the binary that reads it
 * (which is why only the machine's own platform is built here: a code cache is platform-specific), then
 * injected into a copy of that Node with postject.
 */
export function buildSea(options: {
  bundle: string;
  /** Files the bundle loads with `node:sea`'s getAsset, by asset name. */
  assets: Record<string, string>;
  node: string;
  output: string;
  workDir: string;
  platform: TargetPlatform;
}): void {
  const blob = join(options.workDir, 'sea-prep.blob');
  const config = join(options.workDir, 'sea-config.json');
  writeFileSync(
    config,
    `${JSON.stringify(
      {
        main: options.bundle,
        output: blob,
        disableExperimentalSEAWarning: true,
        assets: options.assets,
        // Startup is paid on every `kubectl aso` and every tab: the code cache saves compiling the bundle.
        useCodeCache: true,
      },
      null,
      2,
    )}\n`,
  );
  execFileSync(options.node, ['--experimental-sea-config', config], { stdio: 'inherit' });
  rmSync(options.output, { force: true });
  copyFileSync(options.node, options.output);
  chmodSync(options.output, 0o755);
  const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
  const injection = spawnSync(
    process.execPath,
    [
      postject,
      options.output,
      'NODE_SEA_BLOB',
      blob,
      '--sentinel-fuse',
      seaFuse,
      ...(options.platform.os === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
  );
  // postject's ELF library warns about note sections it does not name; nothing else it says is noise.
  const messages = injection.stderr
    .split('\n')
    .filter((line) => line !== '' && !line.includes("Can't find string offset for section name"));
  if (messages.length > 0) process.stderr.write(`${messages.join('\n')}\n`);
  if (injection.status !== 0)
    throw new Error(`postject exited ${injection.status} injecting into ${options.output}`);
}
