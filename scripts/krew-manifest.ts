// Writes krew's plugin manifest for the archive `npm run package` built, so that its sha256 is always the
// archive's: `node scripts/krew-manifest.ts [OUTPUT]` (default plugins/aso.yaml). The archive's URL is
// KUBECTL_ASO_RELEASE_URL/<archive> once it is published there; until then, the local archive's file://
// URL, for `kubectl krew install --manifest=plugins/aso.yaml --archive=dist-package/<archive>`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stringify } from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  description: string;
  homepage?: string;
};
const archiveName = `kubectl-aso_${pjson.version}_linux_amd64.tar.gz`;
const archive = join(root, 'dist-package', archiveName);
if (!existsSync(archive)) {
  process.stderr.write(`error: ${archive} does not exist\nhint: run npm run package first\n`);
  process.exit(2);
}
const output = resolve(process.argv[2] ?? join(root, 'plugins', 'aso.yaml'));
const sha256 = createHash('sha256').update(readFileSync(archive)).digest('hex');
const releaseUrl = process.env.KUBECTL_ASO_RELEASE_URL;
const uri = releaseUrl ? `${releaseUrl.replace(/\/+$/, '')}/${archiveName}` : pathToFileURL(archive).href;
// krew installs into store/aso/<spec.version>/ and links only `bin` into its bin folder.
const version = `v${pjson.version}`;
// The shell's own expansion, written for the user to paste (not a template placeholder).
const krewRoot = `\${KREW_ROOT:-$HOME/.krew}`;

const manifest = {
  apiVersion: 'krew.googlecontainertools.github.com/v1alpha2',
  kind: 'Plugin',
  metadata: { name: 'aso' },
  spec: {
    version,
    // The project's own page once package.json names one; until then, the operator's documentation.
    homepage: pjson.homepage ?? 'https://azure.github.io/azure-service-operator/',
    shortDescription: 'Status, adoption checks and migration for Azure Service Operator v2',
    description: [
      `${pjson.description}`,
      '',
      "status: every ASO resource's Ready condition across namespaces, summarised, with --watch, --wait and",
      '--fail-on for terminals and CI. adopt-check: before applying manifests, which resources already exist',
      'in Azure and what the operator would do with them (read-only). Exit codes are documented in --help.',
      '',
    ].join('\n'),
    caveats: [
      'kubectl aso is a single executable: it needs no Node.js or anything else on the machine.',
      '',
      'Tab completion (kubectl 1.26 or newer) runs kubectl_complete-aso from PATH. krew links only',
      'kubectl-aso into its bin folder, so link the completion script once:',
      '',
      `  ln -sf "${krewRoot}/store/aso/${version}/kubectl_complete-aso" "${krewRoot}/bin/"`,
      '',
    ].join('\n'),
    platforms: [
      {
        selector: { matchLabels: { os: 'linux', arch: 'amd64' } },
        uri,
        sha256,
        files: [
          { from: 'kubectl-aso', to: '.' },
          { from: 'kubectl_complete-aso', to: '.' },
          { from: 'LICENSE', to: '.' },
        ],
        bin: 'kubectl-aso',
      },
    ],
  },
};

mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, stringify(manifest, { lineWidth: 0 }));
process.stdout.write(`${output}: aso ${version}, sha256 ${sha256}\n`);
