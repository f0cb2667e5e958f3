import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { LiveChildren } from '../../lib/conversion/arm.ts';
import { releaseCatalogFile } from '../import/release-catalog-file.ts';
import { kubernetesKindsDir } from '../model/kubernetes-kinds.ts';
import type { Bounds } from '../model/types.ts';
import { stage } from '../stage.ts';

/** The subset of JSON Schema the ARM-style schemas use. */
export interface JsonSchema extends Bounds {
  readonly type?: string;
  readonly $ref?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly additionalProperties?: JsonSchema | boolean;
  readonly enum?: readonly (string | number)[];
  readonly 'x-ms-enum'?: { readonly name?: string };
  /**
   * kubectl-aso's own keyword: the enum holds for the status alone, the spec takes any string. The operator's
   * CRD spec has no enum where ARM's shared definition gives the status one (a VM's `vmSize`).
   */
  readonly 'x-aso-status-only-enum'?: boolean;
  /**
   * kubectl-aso's own keyword: a `number` the spec takes as an integer, the status as ARM returns it (API
   * Management's diagnostic sampling percentage, an `int` in the operator's spec).
   */
  readonly 'x-aso-spec-integer'?: boolean;
  /**
   * kubectl-aso's own keyword, on an object definition: the operator's status type keeps its validations
   * (required fields, enums) as its spec type does (an autoscale setting's profiles), where statuses
   * otherwise carry none.
   */
  readonly 'x-aso-validated-status'?: boolean;
  /**
   * kubectl-aso's own keyword, on a resource: the operator's name for its status type where that is not
   * `<Kind>_STATUS` (Redis's linked server: `Redis_LinkedServer_STATUS`, as Redis's list entry has the other).
   */
  readonly 'x-aso-status-type'?: string;
  readonly 'x-ms-mutability'?: readonly string[];
  readonly readOnly?: boolean;
  readonly oneOf?: readonly JsonSchema[];
  readonly discriminator?: string;
  readonly description?: string;
  readonly pattern?: string;
  readonly format?: string;
  /**
   * kubectl-aso's own keyword, on a spec property: its path in the operator's ARM body relative to the object
   * holding it, where that is not its own name there (import/arm-paths.ts: a nested object's own `properties`,
   * a resource property ARM keeps at the other level, another spelling).
   */
  readonly 'x-arm-path'?: string;
  /**
   * kubectl-aso's own keyword, on a definition: a discriminated union of the operator's ARM types, with its
   * options in the order the operator's MarshalJSON tries them (import/arm-paths.ts).
   */
  readonly 'x-arm-one-of'?: readonly string[];
  /**
   * kubectl-aso's own keyword, on a resource: the ARM body paths the operator's encoder writes as `null`
   * when unset (a list or map whose Go field lacks `omitempty`; import/arm-paths.ts).
   */
  readonly 'x-arm-null-when-unset'?: readonly string[];
  /**
   * kubectl-aso's own keyword, on a resource: the ARM body paths of the collections the operator sends empty
   * (a `list` as `[]`, a `map` as `{}`) when unset, as AKS's ConvertToARM does (import/arm-paths.ts).
   */
  readonly 'x-arm-empty-when-unset'?: Readonly<Record<string, 'list' | 'map'>>;
  /**
   * kubectl-aso's own keyword, on a resource: the child collection the operator fills from Azure before its
   * PUT, and what of each element it keeps (import/live-children.ts).
   */
  readonly 'x-arm-live-children'?: LiveChildren;
  /** On the root `properties` only: `false` keeps it a property of its own instead of flattening it. */
  readonly 'x-ms-client-flatten'?: boolean;
}

/** One schema file: one ARM resource type at one API version. */
export interface RawSchema {
  /** Path relative to the repository root, for messages. */
  readonly file: string;
  readonly provider: string;
  /** The type below the provider: `flexibleServers/databases`. */
  readonly typePath: string;
  readonly apiVersion: string;
  readonly resource: JsonSchema;
  readonly definitions: Readonly<Record<string, JsonSchema>>;
}

/** Reads every `<schemasDir>/<Provider>/<apiVersion>/<type>.json`, sorted so that runs are deterministic. */
export const loadSchemas = stage({
  id: 'loadSchemas',
  description: 'Load the ARM schemas',
  needs: [],
  run: (state) => {
    const dir = join(state.root, state.schemasDir);
    // The kinds managed without ARM have no ARM schema: loadKubernetesKinds reads their folder; the
    // release catalog is emitReleaseCatalog's.
    const skipped = [kubernetesKindsDir, dirname(releaseCatalogFile)].map((d) => `${join(dir, d)}/`);
    state.schemas = listJson(dir)
      .filter((file) => !skipped.some((folder) => file.startsWith(folder)))
      .map((file) => readSchema(state.root, file));
    if (state.schemas.length === 0) throw new Error(`no schemas under ${dir}`);
  },
});

function listJson(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listJson(path));
    else if (entry.name.endsWith('.json')) out.push(path);
  }
  return out;
}

function readSchema(root: string, path: string): RawSchema {
  const file = relative(root, path);
  const doc = JSON.parse(readFileSync(path, 'utf8')) as {
    resourceType?: string;
    apiVersion?: string;
    resourceDefinitions?: Record<string, JsonSchema>;
    definitions?: Record<string, JsonSchema>;
  };
  const [provider, ...rest] = (doc.resourceType ?? '').split('/');
  const resources = Object.values(doc.resourceDefinitions ?? {});
  if (!provider || rest.length === 0 || !doc.apiVersion || resources.length !== 1 || !resources[0]) {
    throw new Error(`${file}: expected resourceType, apiVersion and exactly one resourceDefinitions entry`);
  }
  return {
    file,
    provider,
    typePath: rest.join('/'),
    apiVersion: doc.apiVersion,
    resource: resources[0],
    definitions: doc.definitions ?? {},
  };
}
