import { setKey } from '../../src/lib/conversion/checks.ts';
import { type Disagreement, sameJson } from './agreement.ts';

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

/** Every exclusion the differential test applies. */
export const exclusions: readonly Exclusion[] = [
  {
    name: 'go-zero-time',
    reason:
      "A condition's `lastTransitionTime` is a metav1.Time value: for a condition without one the operator " +
      'writes its zero value, `null`. A conversion leaves it unset: the API server prunes a null from a ' +
      'field that is not nullable, so both store the same object, and a null would be refused as no string ' +
      'when the object is read again. Every other Go value field (references, destinations, conditions, ' +
      '`azureName`, `originalVersion`) is written as the operator writes it.',
    treatsAsAbsent: (value, pattern) =>
      value === null && pattern === 'status.conditions[].lastTransitionTime',
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
