import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { catalog } from '../../generated/catalog.ts';
import { pluralOf } from '../../src/codegen/model/names.ts';
import { generatedCrdYaml } from '../fixtures/generated-crd-files.ts';

/** The part of an OpenAPI v3 schema the comparison walks. */
export interface Schema {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** One CRD's version schemas by version name. */
export type CrdSchemas = ReadonlyMap<string, Schema>;

interface CrdDocument {
  kind?: string;
  spec?: { versions?: { name: string; schema?: { openAPIV3Schema?: Schema } }[] };
}

/** Reads the version schemas of the CRD in `file` (undefined when there is no such file). */
export function crdSchemasIn(file: string): CrdSchemas | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return crdSchemasOf(text);
}

/** The version schemas of the CRD in a YAML text. */
function crdSchemasOf(text: string): CrdSchemas {
  const crd = parseAllDocuments(text)
    .map((document) => document.toJS() as CrdDocument | null)
    .find((object) => object?.kind === 'CustomResourceDefinition');
  const schemas = new Map<string, Schema>();
  for (const version of crd?.spec?.versions ?? []) {
    if (version.schema?.openAPIV3Schema) schemas.set(version.name, version.schema.openAPIV3Schema);
  }
  return schemas;
}

/** The CRD file name both the operator and kubectl-aso use: `<group>_<plural>.yaml`. */
export function crdFileName(group: string, plural: string): string {
  return `${group}_${plural}.yaml`;
}

/**
 * The CRD file name of a kind, with the plural the generator and the operator both give it (the catalog's:
 * `UserAssignedIdentity` -> `userassignedidentities`, `Redis` -> `redis`): a rule of its own would name no
 * file for some kinds, and a comparison without the file would share no versions and compare nothing.
 */
export function crdFileOfKind(group: string, kind: string): string {
  return crdFileName(group, pluralOfKind(group, kind));
}

/** The plural of a kind the catalog knows; the naming rule only for one it does not (a test fixture's). */
export function pluralOfKind(group: string, kind: string): string {
  return catalog.find((e) => e.group === group && e.kind === kind)?.plural ?? pluralOf(kind);
}

/** kubectl-aso's generated CRD schemas for a kind. */
export function ourSchemas(group: string, plural: string): CrdSchemas {
  const yaml = generatedCrdYaml(crdFileName(group, plural));
  return yaml === undefined ? new Map() : crdSchemasOf(yaml);
}
