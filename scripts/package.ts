// `npm run package` (after `npm run build`): the plugin as one executable that needs no Node on the
// machine, and the archive krew installs. Output in dist-package/:
//   kubectl-aso                                 the Node single executable application (linux-amd64)
//   kubectl_complete-aso                        kubectl's completion hook for the plugin
//   kubectl-aso_<version>_linux_amd64.tar.gz    both, with the LICENSE
// Other platforms: see the README ("Building the single executable").
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import { writeArchive } from './package-archive.ts';
import { bundleCli } from './package-bundle.ts';
import { crdArchiveAssets, crdAssetBytes } from './package-crds.ts';
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
  `package: bundled ${bundle.commands.length} commands (${bundle.commands.join(', ')}) into ${(bundle.bytes / 1e6).toFixed(1)} MB, lazy: ${Object.keys(bundle.lazy).join(', ')}\n`,
);
const crdAssets = crdArchiveAssets(join(root, 'generated/crds'), work);
process.stderr.write(
  `package: ${Object.keys(crdAssets).length - 1} CRD archives (${(crdAssetBytes(crdAssets) / 1e6).toFixed(2)} MB) as assets\n`,
);
const node = ensureNodeBinary(target);
const executable = join(out, 'kubectl-aso');
buildSea({
  bundle: join(work, 'kubectl-aso.cjs'),
  assets: { ...bundle.lazy, ...crdAssets },
  node,
  output: executable,
  workDir: work,
  platform: target,
});
// kubectl runs kubectl_complete-aso from PATH with the words typed; the executable answers. It is looked for
// beside this script first (the archive unpacked, or both linked into one folder), then on PATH. No
// external command is used: completion must work wherever kubectl-aso does.
writeFileSync(
  join(out, 'kubectl_complete-aso'),
  `#!/bin/sh
# kubectl runs this for \`kubectl aso ...<TAB>\` with the words typed so far; kubectl-aso answers.
case "$0" in */*) [ -x "\${0%/*}/kubectl-aso" ] && exec "\${0%/*}/kubectl-aso" __complete "$@" ;; esac
exec kubectl-aso __complete "$@"
`,
);
chmodSync(join(out, 'kubectl_complete-aso'), 0o755);
copyFileSync(join(root, 'LICENSE'), join(out, 'LICENSE'));
const archiveName = `kubectl-aso_${version}_${target.os}_${target.arch}.tar.gz`;
const sha256 = writeArchive(out, ['kubectl-aso', 'kubectl_complete-aso', 'LICENSE'], join(out, archiveName));
rmSync(join(out, 'LICENSE'));
process.stdout.write(
  `dist-package/kubectl-aso: ${(statSync(executable).size / 1e6).toFixed(1)} MB (node ${seaNodeVersion})\n` +
    `dist-package/${archiveName}: ${(statSync(join(out, archiveName)).size / 1e6).toFixed(1)} MB, sha256 ${sha256}\n` +
    `package: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
