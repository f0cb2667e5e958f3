import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** Where the generated CRDs were looked for and not found, or the folder they were read from. */
export type GeneratedCrds =
  | { found: true; dir: string; byKind: Map<string, GeneratedCrd> }
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

const cache = new Map<string, GeneratedCrds>();

/**
 * The generated CRDs, read once: client-side conversion is allowed only where the cluster's schemas equal
 * these (the generated conversions are proven for these shapes and no other). A build without them (a
 * packaging that left `generated/crds` out) makes client-side conversion unavailable, with that reason.
 */
export function generatedCrds(dir: string | undefined = generatedCrdsDir()): GeneratedCrds {
  if (dir === undefined) {
    return {
      found: false,
      reason: 'this build of kubectl-aso does not carry the generated CRDs (generated/crds)',
    };
  }
  let found = cache.get(dir);
  if (!found) {
    found = readGenerated(dir);
    cache.set(dir, found);
  }
  return found;
}

function readGenerated(dir: string): GeneratedCrds {
  const byKind = new Map<string, GeneratedCrd>();
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort()) {
    for (const document of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
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
      byKind.set(kindKey(crd.spec.group, crd.spec.names.kind), {
        group: crd.spec.group,
        kind: crd.spec.names.kind,
        schemas,
      });
    }
  }
  return { found: true, dir, byKind };
}

/** The key of a kind in {@link GeneratedCrds}. */
export function kindKey(group: string, kind: string): string {
  return `${kind}.${group}`;
}
