// `npm run package` (after `npm run build`): the plugin as one executable that needs no Node on the
// machine, and the archive krew installs. Output in dist-package/:
//   kubectl-aso                                 the Node single executable application (linux-amd64)
//   kubectl_complete-aso                        kubectl's completion hook for the plugin
//   kubectl-aso_<version>_linux_amd64.tar.gz    both, with the LICENSE
// Other platforms: see the README ("Building the single executable").
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { writeArchive } from './package-archive.ts';
import { bundleCli } from './package-bundle.ts';
import { ensureNodeBinary, seaNodeVersion, type TargetPlatform } from './package-node.ts';
import { buildSea } from './package-sea.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'dist-package');
const target: TargetPlatform = { os: 'linux', arch: 'amd64' };

if (platform() !== 'linux' || arch() !== 'x64') {
  process.stderr.write(
    `error: npm run package builds linux-amd64 on a linux-amd64 machine (this is ${platform()}-${arch()})\n` +
      'hint: the README says how other platforms are built\n',
  );
  process.exit(2);
}

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const work = join(out, 'build');
rmSync(out, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const started = Date.now();
const bundle = await bundleCli(root, join(work, 'kubectl-aso.cjs'));
process.stderr.write(
  `package: bundled ${bundle.commands.length} commands (${bundle.commands.join(', ')}) into ${(bundle.bytes / 1e6).toFixed(1)} MB\n`,
);
const node = ensureNodeBinary(target);
const executable = join(out, 'kubectl-aso');
buildSea({
  bundle: join(work, 'kubectl-aso.cjs'),
  node,
  output: executable,
  workDir: work,
  platform: target,
});
copyFileSync(join(root, 'LICENSE'), join(out, 'LICENSE'));
const archiveName = `kubectl-aso_${version}_${target.os}_${target.arch}.tar.gz`;
const sha256 = writeArchive(out, ['kubectl-aso', 'LICENSE'], join(out, archiveName));
rmSync(join(out, 'LICENSE'));
process.stdout.write(
  `dist-package/kubectl-aso: ${(statSync(executable).size / 1e6).toFixed(1)} MB (node ${seaNodeVersion})\n` +
    `dist-package/${archiveName}: ${(statSync(join(out, archiveName)).size / 1e6).toFixed(1)} MB, sha256 ${sha256}\n` +
    `package: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
