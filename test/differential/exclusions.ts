import { join } from 'node:path';
import { readConfig } from '../../src/codegen/stages/load-config.ts';
import { setKey } from '../../src/lib/conversion/checks.ts';
import { type Disagreement, sameJson } from './agreement.ts';

/**
 * The properties the operator takes as secret references (`transformations.secrets` of the generator's
 * config, most of it derived from the operator's CRDs) or whole secrets (`secretMaps`, a `name` alone), with
 * the Go name a bag entry keys them by.
 */
const secretProperties = (() => {
  const { secrets, secretMaps } = readConfig(
    join(new URL('../..', import.meta.url).pathname, 'schemas'),
  ).transformations;
  return [
    ...new Set(
      [...secrets, ...secretMaps].flatMap((s) =>
        s.properties.flatMap((p) => [p, p.charAt(0).toUpperCase() + p.slice(1)]),
      ),
    ),
  ].sort();
})();

/**
 * A known, named reason why kubectl-aso and the operator write different things that the differential
 * test does not hold convert() to. Each exclusion says which values it treats as absent; a disagreement is
 * explained when both sides agree once those values are set aside. A conversion whose every difference is
 * explained counts as agreeing, and under each exclusion it needed in the figures, never silently.
 */
export interface Exclusion {
  readonly name: string;
  /** Why the sides differ there, and what would remove the exclusion. */
  readonly reason: string;
  /** Whether this exclusion treats `value`, found at `pattern` (see {@link Disagreement}), as absent. */
  readonly treatsAsAbsent: (value: unknown, pattern: string) => boolean;
}

/**
 * Go fields of a value type (not a pointer) in ASO's API types: `AzureName string`, `OriginalVersion string`,
 * the owner reference's `Name`/`ARMID`/`Group`/`Kind` strings, the fields of a `conditions.Condition`, and
 * the strings of the operatorSpec's shared types (`core.DestinationExpression`'s `Name`/`Key`/`Value`, and a
 * `genruntime.ConfigMapDestination` or `SecretDestination`'s `Name`/`Key`), and the strings of the references
 * the operator's type transformations introduce (`ResourceReference`, `SecretReference`, `SecretMapReference`,
 * `ConfigMapReference`).
 */
const goValueFields = new RegExp(
  [
    /^spec\.(azureName|originalVersion|owner\.(name|armId|group|kind))$/.source,
    /^status\.conditions\[\]\.(type|status|severity|reason|message|lastTransitionTime|observedGeneration)$/
      .source,
    // Directly, or inside a bag entry (keyed by the Go name) when the other version lacks the property.
    /^spec\.operatorSpec\.(\$propertyBag\.)?[cC]onfigMapExpressions\[\]\.(name|key|value)$/.source,
    /^spec\.operatorSpec\.(\$propertyBag\.)?[sS]ecretExpressions\[\]\.(name|key|value)$/.source,
    /^spec\.operatorSpec\.(\$propertyBag\.)?([cC]onfigMaps|[sS]ecrets)\.[^.]+\.(name|key)$/.source,
    // A destination one version lacks, in the configMaps' or secrets' own bag (AKS's principalId).
    /^spec\.operatorSpec\.([cC]onfigMaps|[sS]ecrets)\.\$propertyBag\.[^.]+\.(name|key)$/.source,
    // The operator's references (genruntime.ResourceReference, WellKnownResourceReference, alone or in a
    // list) and its secret and config map references (SecretReference, ConfigMapReference): plain strings,
    // directly or in a bag entry.
    /^spec\.(.*\.)?([a-zA-Z0-9]*Reference|reference|[a-zA-Z0-9]*References\[\])\.(group|kind|name|armId|wellKnownName)$/
      .source,
    // Secret references by the properties the config makes secrets (SQL's and PostgreSQL's password, Kusto's
    // virtualClusterGraduationProperties, IoT Hub's connection strings, ...).
    `^spec\\.(.*\\.)?([a-zA-Z0-9]+FromConfig|${secretProperties.join('|')})\\.(name|key)$`,
  ].join('|'),
);

/** The JSON zero values of Go's value types: what such a field holds when nothing set it. */
function isGoZero(value: unknown): boolean {
  return value === '' || value === null || value === 0 || value === false;
}

/** Every exclusion the differential test applies. */
export const exclusions: readonly Exclusion[] = [
  {
    name: 'go-value-field-zero',
    reason:
      'A Go value-type field (azureName, originalVersion, owner.name/armId/group/kind, the fields of a ' +
      'condition, the strings of an operatorSpec expression or destination, of a resource, secret or config map reference) cannot be absent: the operator drops its zero value ("", 0, false, null) under `omitempty`, ' +
      'or writes the zero value for an absent field without `omitempty`, where convert() keeps exactly what it ' +
      'was given. The operator reads both the same. Matching it needs each Go field type and JSON tag in the ' +
      'generated types (issue 8 items 3-4).',
    treatsAsAbsent: (value, pattern) => goValueFields.test(pattern) && isGoZero(value),
  },
];

const inBag = /\.\$propertyBag\.[^.]+$/;

/**
 * `value` (at `pattern`) without what `applied` treats as absent, recursively. A bag entry's JSON text is
 * parsed first, since its value is what counts. An object left empty is absent where the comparison itself
 * treats `{}` so (outside bag entries, see agreement.ts), elsewhere only if an applied exclusion says so.
 */
function normalised(
  value: unknown,
  pattern: string,
  applied: readonly Exclusion[],
  parsedBag = false,
): unknown {
  let current = value;
  let insideBag = parsedBag;
  // A bag entry's text, also one nested in another entry's JSON (the operator bags a whole object a version
  // lacks, its own nested bag included), is compared by the value it holds.
  if (typeof current === 'string' && inBag.test(pattern)) {
    try {
      current = JSON.parse(current);
      insideBag = true;
    } catch {
      return current;
    }
  }
  const absent = (candidate: unknown) =>
    applied.some((exclusion) => exclusion.treatsAsAbsent(candidate, pattern));
  if (absent(current)) return undefined;
  if (Array.isArray(current)) {
    const items = current.map((item) => normalised(item, `${pattern}[]`, applied, insideBag));
    return absent(items) ? undefined : items;
  }
  if (current === null || typeof current !== 'object') return current;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(current as Record<string, unknown>)) {
    const kept = normalised(child, `${pattern}.${key}`, applied, insideBag);
    if (kept !== undefined) setKey(out, key, kept);
  }
  if (Object.keys(out).length > 0) return out;
  return !insideBag || absent(out) ? undefined : out;
}

function explainedBy(disagreement: Disagreement, applied: readonly Exclusion[]): boolean {
  return sameJson(
    normalised(disagreement.ours, disagreement.pattern, applied),
    normalised(disagreement.operator, disagreement.pattern, applied),
  );
}

/**
 * The exclusions that together explain `disagreement`: one alone when it suffices, else every exclusion
 * that changes either side; undefined when even all of them leave a difference.
 */
export function exclusionsFor(disagreement: Disagreement): readonly Exclusion[] | undefined {
  const alone = exclusions.find((exclusion) => explainedBy(disagreement, [exclusion]));
  if (alone) return [alone];
  if (!explainedBy(disagreement, exclusions)) return undefined;
  return exclusions.filter(
    (exclusion) =>
      !sameJson(normalised(disagreement.ours, disagreement.pattern, [exclusion]), disagreement.ours) ||
      !sameJson(normalised(disagreement.operator, disagreement.pattern, [exclusion]), disagreement.operator),
  );
}
