import { armModules } from '../../../generated/arm-modules.ts';
import { catalog } from '../../../generated/catalog.ts';
import type { ArmFields, ArmLayout } from '../conversion/arm.ts';
import { ArmPayloadError, type ArmResolvers, armBodyParts } from '../conversion/arm.ts';
import { armPathOf } from '../conversion/arm-path.ts';
import { isObject } from '../conversion/checks.ts';
import type { ManifestObject } from '../manifests/read.ts';

/**
 * What the operator would PUT for one object, as its generated ARM payload sends it, and what the catalog
 * says of the ARM paths it holds.
 */
export interface DesiredArm {
  body: Record<string, unknown>;
  /** Spec fields the body does not carry: references not resolved, secrets (never read), unknown keys. */
  unmapped: string[];
  /** Where in the body the operator puts a secret's value (ARM paths); kubectl-aso never reads one. */
  secretsAt: readonly string[];
  /** ARM paths of the maps the body sets whole (`ArmBodyParts.wholeAt`). */
  wholeAt: readonly string[];
  /** ARM paths (`[*]` for any element) of the properties ARM refuses to change after creation. */
  immutableAt: readonly string[];
  /** ARM paths (`[*]` for any element) of the properties ARM takes but never returns. */
  writeOnlyAt: readonly string[];
  /**
   * Why the operator cannot send this spec at all (a union with no option set, a oneOf resource with none
   * or two): it fails the reconcile, so there is no body to compare, only this reason to report.
   */
  refused?: string;
}

/**
 * A kind or version the catalog does not generate (a release newer than the core's): the body the operator
 * would send is not known, and is never guessed.
 */
export interface UnknownBody {
  unknown: string;
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

const placedPaths = new Map<string, Pick<DesiredArm, 'immutableAt' | 'writeOnlyAt'>>();

/**
 * Where the layout of one kind and version sends the spec paths the catalog marks unchangeable or
 * write-only; placed once per run, as every object of the kind (and each twice, with the reference
 * prefetch) asks again.
 */
function catalogPathsOf(
  group: string,
  version: string,
  kind: string,
  layout: ArmLayout,
): Pick<DesiredArm, 'immutableAt' | 'writeOnlyAt'> {
  const key = `${group}/${version}/${kind}`;
  let placed = placedPaths.get(key);
  if (!placed) {
    const entry = catalog.find((e) => e.group === group && e.kind === kind);
    const at = (specPaths: readonly string[] | undefined) =>
      (specPaths ?? []).flatMap((path) => armPathOf(path, layout) ?? []);
    placed = { immutableAt: at(entry?.immutable[version]), writeOnlyAt: at(entry?.writeOnly[version]) };
    placedPaths.set(key, placed);
  }
  return placed;
}

/**
 * What the operator would PUT for an object: the generated ARM payload of its kind and version (the exact
 * root/`properties` split and only the properties that API version has, as the operator sends them). It
 * exists so the what-if compares Azure with the body ASO would really send; for a kind or version the
 * catalog does not generate, it says so instead of guessing a layout.
 */
export async function desiredArmOf(
  object: ManifestObject,
  resolvers: ArmResolvers = {},
): Promise<DesiredArm | UnknownBody> {
  const [group = '', version = ''] = object.apiVersion.split('/');
  const layout = await generatedLayoutOf(group, version, object.kind);
  if (!layout)
    return {
      unknown: `kubectl-aso does not know ${object.kind} at ${object.apiVersion} (its core holds the kinds of ASO v2.18.0 and v2.20.0), so what ASO would send is not predicted`,
    };
  const spec = object.spec ?? {};
  const known = catalogPathsOf(group, version, object.kind, layout);
  try {
    // References the caller could not resolve and secrets (never read) are left out of the body and
    // listed as unmapped: the what-if compares only what kubectl-aso knows the operator would send.
    const parts = armBodyParts(
      { apiVersion: object.apiVersion, kind: object.kind, metadata: object.metadata, spec },
      layout,
      resolvers,
    );
    const leftOut = [...parts.unresolved, ...parts.withheld];
    const sent = { body: parts.body, secretsAt: parts.secretsAt, wholeAt: parts.wholeAt, ...known };
    if (layout.kind === 'plain')
      return { ...sent, unmapped: [...unmappedOf(spec, layout.spec, 'spec.'), ...leftOut] };
    const leaf = layout.leaves.find((l) => spec[l.property] !== undefined);
    const value = leaf ? spec[leaf.property] : undefined;
    const unmapped = leaf && isObject(value) ? unmappedOf(value, leaf.spec, `spec.${leaf.property}.`) : [];
    return { ...sent, unmapped: [...unmapped, ...leftOut] };
  } catch (error) {
    if (!(error instanceof ArmPayloadError)) throw error;
    return { body: {}, unmapped: [], secretsAt: [], wholeAt: [], ...known, refused: error.message };
  }
}
