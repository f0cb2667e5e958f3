import { armModules } from '../../../generated/arm-modules.ts';
import { catalog } from '../../../generated/catalog.ts';
import type { ArmFields, ArmLayout } from '../conversion/arm.ts';
import { ArmPayloadError, type ArmResolvers, armBodyParts, unplaced } from '../conversion/arm.ts';
import { isObject } from '../conversion/checks.ts';
import type { ManifestObject } from '../manifests/read.ts';
import { type DesiredBody, desiredBodyOf } from './what-if.ts';

/** Which rule laid out the desired ARM body: the generated payload of a catalogued kind, or ARM's layout rule. */
export type DesiredFrom = 'generated-payload' | 'layout-rule';

/** The desired ARM body of one object, and where its layout came from. */
export interface DesiredArm extends DesiredBody {
  from: DesiredFrom;
  /** Where in the body the operator puts a secret's value (ARM paths); kubectl-aso never reads one. */
  secretsAt: readonly string[];
  /** ARM paths of the maps the body sets whole (`ArmBodyParts.wholeAt`). */
  wholeAt: readonly string[];
  /**
   * Why the operator cannot send this spec at all (a union with no option set, a oneOf resource with none
   * or two): it fails the reconcile, so there is no body to compare, only this reason to report.
   */
  refused?: string;
}

const layouts = new Map<string, Promise<ArmLayout | undefined>>();

/**
 * The generated ARM layout of a catalogued kind at a version, loaded only when a manifest of it is
 * checked (so `--help` and `status` never load the generated payload code). Undefined for other kinds.
 */
export function generatedLayoutOf(
  group: string,
  version: string,
  kind: string,
): Promise<ArmLayout | undefined> {
  const known = catalog.some(
    (entry) =>
      entry.group === group && entry.kind === kind && entry.versions.some((v) => v.version === version),
  );
  if (!known) return Promise.resolve(undefined);
  const key = `${group}/${version}/${kind}`;
  let layout = layouts.get(key);
  if (!layout) {
    const load = armModules[`${group.replace(/\.azure\.com$/, '')}/${version}`];
    if (load === undefined) return Promise.resolve(undefined);
    layout = load().then(
      (module: Record<string, unknown>) => module[`${kind}_armLayout`] as ArmLayout | undefined,
      () => undefined,
    );
    layouts.set(key, layout);
  }
  return layout;
}

/** Spec fields the operator consumes itself; never part of the body. */
const asoOnly = new Set(['owner', 'azureName', 'operatorSpec', '$propertyBag']);

/** The spec fields a layout does not send: references and secrets the operator resolves, or unknown keys. */
function unmappedOf(spec: Record<string, unknown>, fields: ArmFields, prefix: string): string[] {
  const sent = new Set([...fields.root, ...fields.properties]);
  return Object.keys(spec)
    .filter((key) => !asoOnly.has(key) && !sent.has(key))
    .map((key) => `${prefix}${key}`);
}

/**
 * What the operator would PUT for an object: for a catalogued kind, the generated ARM payload of its
 * version (the exact root/`properties` split and only the properties that API version has, as the operator
 * sends them); for any other kind, ARM's layout rule. It exists so the what-if compares Azure with the body
 * ASO would really send, where the generator knows it, and never guesses where it does not.
 */
export async function desiredArmOf(
  object: ManifestObject,
  resolvers: ArmResolvers = {},
): Promise<DesiredArm> {
  const [group = '', version = ''] = object.apiVersion.split('/');
  const layout = await generatedLayoutOf(group, version, object.kind);
  const spec = object.spec ?? {};
  if (layout) {
    try {
      // References the caller could not resolve and secrets (never read) are left out of the body and
      // listed as unmapped: the what-if compares only what kubectl-aso knows the operator would send.
      const parts = armBodyParts(
        { apiVersion: object.apiVersion, kind: object.kind, metadata: object.metadata, spec },
        layout,
        resolvers,
      );
      const body = parts.body;
      const leftOut = [...parts.unresolved, ...parts.withheld];
      if (layout.kind === 'plain')
        return {
          body,
          unmapped: [...unmappedOf(spec, layout.spec, 'spec.'), ...leftOut],
          from: 'generated-payload',
          secretsAt: parts.secretsAt,
          wholeAt: parts.wholeAt,
        };
      const leaf = layout.leaves.find((l) => spec[l.property] !== undefined);
      const value = leaf ? spec[leaf.property] : undefined;
      const unmapped = leaf && isObject(value) ? unmappedOf(value, leaf.spec, `spec.${leaf.property}.`) : [];
      return {
        body,
        unmapped: [...unmapped, ...leftOut],
        from: 'generated-payload',
        secretsAt: parts.secretsAt,
        wholeAt: parts.wholeAt,
      };
    } catch (error) {
      if (!(error instanceof ArmPayloadError)) throw error;
      return {
        body: {},
        unmapped: [],
        from: 'generated-payload',
        secretsAt: [],
        wholeAt: [],
        refused: error.message,
      };
    }
  }
  return {
    ...desiredBodyOf(spec, await secretKeysOf(group, object.kind)),
    from: 'layout-rule',
    secretsAt: [],
    wholeAt: [],
  };
}

/**
 * The spec properties any generated version of a kind sends as a secret reference: the layout rule has no
 * types, and a version the catalog does not generate (or a spec its payload refuses) may still hold a
 * secret given inline, which must never reach the body, the what-if or the output.
 */
async function secretKeysOf(group: string, kind: string): Promise<Set<string>> {
  const keys = new Set<string>();
  const entry = catalog.find((e) => e.group === group && e.kind === kind);
  for (const { version } of entry?.versions ?? []) {
    const layout = await generatedLayoutOf(group, version, kind);
    const fields = !layout ? [] : layout.kind === 'plain' ? [layout.spec] : layout.leaves.map((l) => l.spec);
    for (const { values } of fields)
      for (const [key, shape] of Object.entries(values ?? {}))
        if (typeof unplaced(shape) === 'object' && 'secret' in (unplaced(shape) as object)) keys.add(key);
  }
  return keys;
}
