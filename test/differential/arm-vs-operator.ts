import fc from 'fast-check';
import { desiredArmOf } from '../../src/lib/adoption/desired-body.ts';
import { nonArmKinds } from '../../src/lib/adoption/kind-arm.ts';
import type { CatalogEntry } from '../../src/lib/conversion/catalog-types.ts';
import type { ManifestObject } from '../../src/lib/manifests/read.ts';
import { pruneToSchema } from '../../src/testing/conversion-support.ts';
import { arbitraryOf, type GroupShapes } from '../../src/testing/shape-arbitrary.ts';
import { armWithOperator } from '../fixtures/operator-conversion.ts';
import { type ArmDisagreement, compareArmBodies, differentialResolvers } from './arm-agreement.ts';
import { sharedKind } from './random-pairs.ts';
import type { Sample } from './samples.ts';

/** What one kind's ARM bodies came to: objects compared and agreeing, the values set aside, the differences. */
export interface ArmKindFigures {
  readonly key: string;
  compared: number;
  agreed: number;
  secrets: number;
  /**
   * Objects whose references the operator refuses (a reference neither an ARM ID alone nor group, kind and
   * name; a secret or config map reference without its name or key: random objects the operator's admission
   * would refuse first). Counted, not compared: no ConvertToARM output exists for them.
   */
  invalid: number;
  /**
   * Objects with a number the CRD allows but the operator's Go type cannot hold (a negative BGP ASN, which
   * the CRD types int32 and Go uint32): the operator cannot read them, so ConvertToARM never runs.
   * Counted, not compared.
   */
  unreadable: number;
  /**
   * Objects both sides refuse to send: a discriminated union with no option set, on which the operator's
   * MarshalJSON fails and for which kubectl-aso names the union. Counted as agreeing.
   */
  refusedAlike: number;
  /** Objects the operator refused for any other reason, or only one side refused: each a failure. */
  refusals: string[];
  /** Each differing pattern once, with its first object and values. */
  readonly disagreements: Map<string, ArmDisagreement & { object: string }>;
}

/** The kinds whose operator CRD has no ARM resource (users managed over SQL, Entra groups): no body to compare. */
export function isArmKind(entry: Pick<CatalogEntry, 'group' | 'kind'>): boolean {
  return !nonArmKinds.some((k) => k.group === entry.group && k.kind === entry.kind);
}

/**
 * Random objects of each of `versions` of a kind, drawn from its group's shapes by `seed`: spec only, as the
 * body is made of the spec (a random status would only meet the operator's stricter types first).
 */
async function randomObjects(
  entry: CatalogEntry,
  versions: readonly string[],
  count: number,
  seed: number,
): Promise<{ object: ManifestObject; label: string }[]> {
  const folder = entry.group.replace(/\.azure\.com$/, '');
  const { shapes } = (await import(`../../generated/${folder}/shapes.ts`)) as { shapes: GroupShapes };
  return versions.flatMap((version) =>
    fc
      .sample(arbitraryOf(shapes, version, entry.kind, { extras: false }), { seed, numRuns: count })
      .map(({ status: _status, ...object }, i) => ({
        object: validReferences(object) as unknown as ManifestObject,
        label: `random ${entry.group}/${version} ${entry.kind} #${i} (seed ${seed})`,
      })),
  );
}

/**
 * `value` with every reference made one the operator's admission accepts, so that random objects reach
 * ConvertToARM instead of stopping at a reference no cluster could hold: a resource reference keeps its ARM
 * ID alone (a well-known reference its well-known name alone), or else gets a group, kind and name; a secret, secret map or config map reference gets a name
 * and key. Which objects are references is told by their keys (only a reference's, with `armId`, `group`
 * or `wellKnownName` among them; exactly `name` and `key`).
 */
function validReferences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(validReferences);
  if (value === null || typeof value !== 'object') return value;
  const object = Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, validReferences(inner)]),
  ) as Record<string, unknown>;
  const keys = Object.keys(object).sort().join();
  const referenceKeys = ['armId', 'group', 'kind', 'name', 'wellKnownName'];
  const reference =
    Object.keys(object).every((key) => referenceKeys.includes(key)) &&
    ('armId' in object || 'group' in object || 'wellKnownName' in object);
  if (reference) {
    // A well-known reference names its resource one way: by well-known name, ARM ID, or group, kind and name.
    if (typeof object.wellKnownName === 'string' && object.wellKnownName !== '')
      return { wellKnownName: object.wellKnownName };
    if (typeof object.armId === 'string' && object.armId !== '') return { armId: object.armId };
    return { group: object.group || 'g.azure.com', kind: object.kind || 'K', name: object.name || 'n' };
  }
  if (keys === 'key,name') return { name: object.name || 'n', key: object.key || 'k' };
  return object;
}

/**
 * Compares the ARM body kubectl-aso predicts for each object of `entry` (its samples, then `count` random
 * objects per version) with the body the operator's own ConvertToARM makes of it, both resolving references
 * and config maps by the same fixed rules and the operator filling secrets where kubectl-aso says they go.
 * `release` names an earlier operator release as the referee (its CRDs in `realCrdDir`), `only` limits the
 * comparison to some API versions (those that release alone serves).
 */
export async function compareKindArm(
  entry: CatalogEntry,
  samples: readonly Sample[],
  realCrdDir: string,
  count: number,
  seed: number,
  { release, only }: { release?: string; only?: readonly string[] } = {},
): Promise<ArmKindFigures> {
  // The API versions both sides serve: a version only kubectl-aso has (a compatibility version) has no
  // ConvertToARM in the operator to compare with.
  const storage = new Set(entry.storageVersions);
  const shared = sharedKind(entry, realCrdDir, release);
  const versions = shared.shared.filter((v) => !storage.has(v) && (only === undefined || only.includes(v)));
  const mine = samples
    .filter((s) => s.object.kind === entry.kind)
    .filter((s) => versions.some((v) => s.object.apiVersion === `${entry.group}/${v}`))
    .map((s) => ({ object: s.object as unknown as ManifestObject, label: s.file }));
  // Each object as the API server stores it under the operator's CRD: a field it does not declare (a
  // sample's misspelt `oauth2GrantType`) never reaches the operator, whose Go decoder would match it
  // regardless of case.
  const objects = [...mine, ...(await randomObjects(entry, versions, count, seed))].map(
    ({ object, label }) => {
      const schema = shared.theirs.get(object.apiVersion.split('/')[1] ?? '');
      return {
        object: (schema
          ? pruneToSchema(object, schema as Parameters<typeof pruneToSchema>[1])
          : object) as ManifestObject,
        label,
      };
    },
  );
  const figures: ArmKindFigures = {
    key: `${entry.group}/${entry.kind}`,
    compared: 0,
    agreed: 0,
    secrets: 0,
    invalid: 0,
    unreadable: 0,
    refusedAlike: 0,
    refusals: [],
    disagreements: new Map(),
  };
  const theirs = await armWithOperator(
    objects.map((o) => o.object),
    entry.group,
    release,
  );
  for (const [index, { object, label }] of objects.entries()) {
    const operator = theirs[index];
    figures.compared++;
    if (operator !== undefined && 'error' in operator && /couldn't find resolved/.test(operator.error)) {
      figures.invalid++;
      continue;
    }
    if (
      operator !== undefined &&
      'error' in operator &&
      /^the operator's type refuses the object: json: cannot unmarshal number \S+ into Go struct field \S+ of type u?int\d*$/.test(
        operator.error,
      )
    ) {
      figures.unreadable++;
      continue;
    }
    const ours = await desiredArmOf(object, differentialResolvers);
    // Every kind and version both sides serve is generated: a body not predicted is a failure of the core.
    if ('unknown' in ours) throw new Error(`${label}: ${ours.unknown}`);
    if (operator !== undefined && 'error' in operator && ours.refused !== undefined) {
      // The operator's MarshalJSON of a union with nothing set returns no bytes at all.
      if (/MarshalJSON for type \S+: unexpected end of JSON input$/.test(operator.error)) {
        figures.refusedAlike++;
        figures.agreed++;
      } else
        figures.refusals.push(
          `${label}: both refuse it, for other reasons: operator: ${operator.error}; kubectl-aso: ${ours.refused}`,
        );
      continue;
    }
    if (operator === undefined || 'error' in operator) {
      figures.refusals.push(`${label}: the operator refuses it: ${operator?.error ?? 'no answer'}`);
      continue;
    }
    if (ours.refused !== undefined) {
      figures.refusals.push(`${label}: kubectl-aso refuses it, the operator sends it: ${ours.refused}`);
      continue;
    }
    const result = compareArmBodies(ours.body, ours.secretsAt, operator.body);
    figures.secrets += result.secrets;
    if (result.disagreements.length === 0) figures.agreed++;
    for (const d of result.disagreements)
      if (!figures.disagreements.has(d.pattern))
        figures.disagreements.set(d.pattern, { ...d, object: label });
  }
  return figures;
}

/** The line a run prints per kind. */
export function armFiguresLine(f: ArmKindFigures): string {
  return `ARM agreement: ${f.key}: ${f.agreed} of ${f.compared} bodies agree (${f.secrets} secrets placed alike${f.invalid > 0 ? `, ${f.invalid} with references the operator refuses` : ''}${f.unreadable > 0 ? `, ${f.unreadable} with numbers the operator's Go types cannot hold` : ''}${f.refusedAlike > 0 ? `, ${f.refusedAlike} unions with nothing set refused alike` : ''}${f.refusals.length > 0 ? `, ${f.refusals.length} refused by the operator` : ''}${f.disagreements.size > 0 ? `; ${f.disagreements.size} differing paths` : ''})`;
}
