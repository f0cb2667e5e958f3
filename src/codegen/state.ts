import { crdArchiveSuffix, decompressCrdYaml } from '../lib/crds/crd-archive.ts';
import type { ConversionGraph } from './conversions/graph.ts';
import type { ConversionPlan } from './conversions/plan-types.ts';
import type { GeneratorConfig } from './model/config.ts';
import type { KubernetesKindSchema } from './model/kubernetes-kinds.ts';
import type { PackageDef } from './model/types.ts';
import type { RawSchema } from './stages/load-schemas.ts';

/**
 * Everything the stages share. Each stage fills in what it produces; a later stage reads it through
 * {@link need}, which fails with the missing field's name instead of a TypeError.
 */
export interface GenerationState {
  /** The repository root: `generated/` is written under it, hook modules are named relative to it. */
  readonly root: string;
  /**
   * Where the schemas and `generator-config.yaml` are read from, relative to `root`: `schemas` for the
   * shipped run; the generator's tests point it at their own fixtures, whose invented renames and removals
   * exercise stages the real schemas do not need.
   */
  readonly schemasDir: string;
  config?: GeneratorConfig;
  schemas?: RawSchema[];
  /** The kinds the operator manages without ARM (`schemas/kubernetes/`), sorted by group and kind. */
  kubernetesKinds?: KubernetesKindSchema[];
  /** API packages first, then compatibility clones and storage variants as stages add them. */
  packages: PackageDef[];
  graph?: ConversionGraph;
  plans?: ConversionPlan[];
  /**
   * Output: path relative to `generated/` -> file content. Bytes for the compressed CRD archives
   * (`crds/<group>.yaml.br`), whose decompressed text carries the generated marker.
   */
  readonly files: Map<string, string | Uint8Array>;
}

/** A fresh state for a run over the repository at `root`, reading schemas from `schemasDir`. */
export function newState(root: string, schemasDir = 'schemas'): GenerationState {
  return { root, schemasDir, packages: [], files: new Map() };
}

/** Returns a state field that an earlier stage must have produced, or fails naming it. */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing: the stage producing it has not run`);
  return value;
}

/** Adds an output file, refusing two stages writing the same path. */
export function addFile(state: GenerationState, path: string, content: string | Uint8Array): void {
  if (state.files.has(path)) throw new Error(`two stages write generated/${path}`);
  state.files.set(path, content);
}

/** An output file's text, for readers of the output (the generator's tests): an archive's YAML. */
export function fileText(state: GenerationState, path: string): string | undefined {
  const content = state.files.get(path);
  if (content === undefined || typeof content === 'string') return content;
  return path.endsWith(crdArchiveSuffix) ? decompressCrdYaml(content) : Buffer.from(content).toString('utf8');
}
