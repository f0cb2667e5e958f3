import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { armUriInDescription } from '../../lib/adoption/arm-uri.ts';
import {
  type KubernetesKindSchema,
  kubernetesKindMarker,
  kubernetesKindsDir,
} from '../model/kubernetes-kinds.ts';
import { type Json, stableJson } from './arm-schema.ts';

/** Raised when a kind named as managed without ARM has no CRD, or has one that carries an ARM URI. */
export class KubernetesKindNotFound extends Error {
  constructor(key: string, why: string) {
    super(`${key}: ${why}`);
    this.name = 'KubernetesKindNotFound';
  }
}

interface CrdFile {
  spec?: {
    group?: string;
    names?: KubernetesKindSchema['names'];
    scope?: string;
    versions?: {
      name: string;
      served?: boolean;
      storage?: boolean;
      schema?: { openAPIV3Schema?: Record<string, unknown> & { description?: string } };
    }[];
  };
}

/**
 * Writes `kubernetes/<group>/<plural>.json` under `outDir` for each `group/Kind` in `kinds`, read from the
 * CRD folder (released or made from the Go module), and returns the files written, sorted. A kind whose CRD
 * carries an ARM URI is refused: it is an ARM resource, imported as one.
 */
export function importKubernetesKinds(
  crdDir: string,
  outDir: string,
  kinds: readonly string[],
): { file: string; crd: string; version: string }[] {
  const files = readdirSync(crdDir).sort();
  const written: { file: string; text: string; crd: string; version: string }[] = [];
  for (const key of [...kinds].sort()) {
    const [group = '', kind = ''] = key.split('/');
    const found = files
      .filter((f) => f.startsWith(`${group}_`) && f.endsWith('.yaml'))
      .map((f) => ({ file: f, doc: parse(readFileSync(join(crdDir, f), 'utf8')) as CrdFile }))
      .find(({ doc }) => doc.spec?.names?.kind === kind);
    if (!found)
      throw new KubernetesKindNotFound(key, `no CRD of ${group} in ${crdDir} serves the kind ${kind}`);
    const spec = found.doc.spec ?? {};
    const versions = spec.versions ?? [];
    if (versions.some((v) => armUriInDescription(v.schema?.openAPIV3Schema?.description) !== undefined))
      throw new KubernetesKindNotFound(key, `${found.file} carries an ARM URI: import its ARM type instead`);
    const names = spec.names as KubernetesKindSchema['names'];
    const schema: KubernetesKindSchema = {
      description: kubernetesKindMarker,
      group,
      names,
      scope: spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced',
      versions: versions.map((v) => ({
        name: v.name,
        served: v.served ?? false,
        storage: v.storage ?? false,
        openAPIV3Schema: v.schema?.openAPIV3Schema ?? {},
      })),
    };
    written.push({
      file: join(kubernetesKindsDir, group, `${names.plural}.json`),
      text: stableJson(schema as unknown as Json),
      crd: found.file,
      version: versions.map((v) => v.name).join(', '),
    });
  }
  for (const { file, text } of written) {
    mkdirSync(dirname(join(outDir, file)), { recursive: true });
    writeFileSync(join(outDir, file), text);
  }
  return written.map(({ file, crd, version }) => ({ file, crd, version }));
}
