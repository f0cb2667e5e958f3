import type { GeneratorConfig, PropertySelection } from '../model/config.ts';
import type { Reversal } from './reverse.ts';

/** A transformation the import undid that the generator config would not redo, with the entry to add. */
export interface MissingTransformation {
  readonly section: Reversal['transformation'];
  readonly group: string;
  readonly type: string;
  readonly apiVersion: string;
  readonly property: string;
}

/**
 * Raised when the operator transforms a property the config does not list: generating from the imported
 * schema would then leave, say, an ARM ID where the operator has a reference. The message lists each entry
 * as the config's `transformations` section spells it, so it can be added after review.
 */
export class TransformationsNotConfigured extends Error {
  readonly missing: readonly MissingTransformation[];

  constructor(missing: readonly MissingTransformation[]) {
    super(
      `schemas/generator-config.yaml lacks transformations the operator makes:\n${missing
        .map(
          (m) =>
            `  ${m.section}: {group: ${m.group}, type: ${m.type}, apiVersions: ['${m.apiVersion}'], properties: [${m.property}]}`,
        )
        .join('\n')}`,
    );
    this.name = 'TransformationsNotConfigured';
    this.missing = missing;
  }
}

const selects = (s: PropertySelection, group: string, type: string, apiVersion: string, property: string) =>
  s.group === group &&
  s.type === type &&
  s.properties.includes(property) &&
  (s.apiVersions.length === 0 || s.apiVersions.includes(apiVersion));

/**
 * The reversals of one imported schema that the config's `transformations` would not redo. The config
 * stays the one list the generator reads (written and reviewed by hand, as ASO's own generator config is);
 * the import only checks it.
 */
export function missingTransformations(
  config: GeneratorConfig,
  group: string,
  apiVersion: string,
  specType: string,
  reversals: readonly Reversal[],
  definitionAt: ReadonlyMap<string, string>,
): MissingTransformation[] {
  const out: MissingTransformation[] = [];
  for (const r of reversals) {
    const type = r.owner === '' ? specType : definitionAt.get(r.owner);
    if (type === undefined) throw new Error(`no definition was written for ${r.owner}`);
    if (
      !config.transformations[r.transformation].some((s) => selects(s, group, type, apiVersion, r.property))
    )
      out.push({ section: r.transformation, group, type, apiVersion, property: r.property });
  }
  return out;
}
