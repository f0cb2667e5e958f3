import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** A CRD version's `openAPIV3Schema`, as JSON. */
export type VersionSchema = Record<string, unknown>;

/** The generated CRD of one kind: its schemas by version name. */
export interface GeneratedCrd {
  group: string;
  kind: string;
  schemas: Map<string, VersionSchema>;
}

/** The generated CRDs of this installation, or why there are none. */
export type GeneratedCrds =
  | { found: true; dir: string; lookup: (group: string, plural: string) => GeneratedCrd | undefined }
  | { found: false; reason: string };

/**
 * The folder `generated/crds` of this installation: found by walking up from this module, so that it is
 * the same whether the plugin runs from the sources (src/lib/migrate) or the build (dist/src/lib/migrate).
 */
function generatedCrdsDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, 'generated', 'crds');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

const cache = new Map<string, GeneratedCrd | undefined>();

/**
 * The generated CRDs: client-side conversion is allowed only where the cluster's schemas equal these (the
 * generated conversions are proven for these shapes and no other). Each is read when first looked up (one
 * file, `<group>_<plural>.yaml`, as the generator names them), so a run pays only for the kinds it checks.
 * A build without them (the single executable) makes client-side conversion unavailable, with that reason.
 */
export function generatedCrds(dir: string | undefined = generatedCrdsDir()): GeneratedCrds {
  if (dir === undefined) {
    return {
      found: false,
      reason: 'this build of kubectl-aso does not carry the generated CRDs (generated/crds)',
    };
  }
  return {
    found: true,
    dir,
    lookup: (group, plural) => {
      const file = join(dir, `${group}_${plural}.yaml`);
      if (!cache.has(file)) cache.set(file, existsSync(file) ? readGenerated(file) : undefined);
      return cache.get(file);
    },
  };
}

function readGenerated(file: string): GeneratedCrd | undefined {
  for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const crd = document.toJS() as {
      spec?: {
        group: string;
        names: { kind: string };
        versions: Array<{ name: string; schema?: { openAPIV3Schema?: VersionSchema } }>;
      };
    } | null;
    if (!crd?.spec) continue;
    const schemas = new Map<string, VersionSchema>();
    for (const version of crd.spec.versions) {
      if (version.schema?.openAPIV3Schema) schemas.set(version.name, version.schema.openAPIV3Schema);
    }
    return { group: crd.spec.group, kind: crd.spec.names.kind, schemas };
  }
  return undefined;
}
