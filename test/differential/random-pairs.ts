import { join } from 'node:path';
import fc from 'fast-check';
import type { CatalogEntry } from '../../src/lib/conversion/catalog-types.ts';
import { convert } from '../../src/lib/conversion/convert.ts';
import { keepingLeftovers } from '../../src/lib/conversion/property-bag.ts';
import { mapConcurrently } from '../../src/lib/migrate/pool.ts';
import { type GroupShapes, arbitraryOf as shapeArbitrary } from '../../src/testing/shape-arbitrary.ts';
import { convertWithOperator } from '../fixtures/operator-conversion.ts';
import {
  compareOutcomes,
  type Disagreement,
  type Outcome,
  sameJson,
  type VersionSchemas,
} from './agreement.ts';
import { asStored, type Fitting, prunedTo } from './as-stored.ts';
import { exclusionsFor } from './exclusions.ts';
import { type CrdSchemas, crdFileOfKind, crdSchemasIn, ourSchemas, type Schema } from './schemas.ts';

/**
 * Random objects of one kind at one version, converted to another by kubectl-aso's convert() and by the
 * operator's own conversions, compared. Each pair runs three rounds on the same random objects:
 * - `direct`: the random object, as a cluster could store it at the source version, converted to the target;
 * - `operator-stored`: what the operator wrote at the target (pruned by its real CRD, as the API server
 *   keeps it), `$propertyBag` included, read back to the source by both sides;
 * - `ours-stored`: what convert() wrote at the target, likewise read back to the source by both sides.
 * So every bag either side writes at a shared version is read by the other, both ways round.
 */

/** The three rounds of a pair; see the module comment. */
export const rounds = ['direct', 'operator-stored', 'ours-stored'] as const;

/** One of {@link rounds}. */
export type Round = (typeof rounds)[number];

/** A kind with the versions both sides have: its generated schemas, the operator's real CRD schemas. */
export interface SharedKind {
  readonly group: string;
  readonly kind: string;
  /** Versions kubectl-aso generates and the operator's real CRD serves, in kubectl-aso's catalog order. */
  readonly shared: readonly string[];
  readonly ours: CrdSchemas;
  readonly theirs: CrdSchemas;
  /** The operator release whose conversions referee (v2.20.0 unless an earlier one's CRDs were read). */
  readonly release?: string;
}

/** The kind's versions both sides have, read from the CRD files named with the kind's plural (crdFileOfKind). */
export function sharedKind(entry: CatalogEntry, realCrdDir: string, release?: string): SharedKind {
  const ours = ourSchemas(entry.group, entry.plural);
  const theirs =
    crdSchemasIn(join(realCrdDir, crdFileOfKind(entry.group, entry.kind))) ?? new Map<string, Schema>();
  const all = [...entry.versions.map((v) => v.version), ...entry.storageVersions];
  const shared = all.filter((version) => ours.has(version) && theirs.has(version));
  return { group: entry.group, kind: entry.kind, shared, ours, theirs, ...(release ? { release } : {}) };
}

/** Every ordered pair of distinct shared versions. */
export function versionPairs(kind: SharedKind): { source: string; target: string }[] {
  return kind.shared.flatMap((source) =>
    kind.shared.filter((target) => target !== source).map((target) => ({ source, target })),
  );
}

/** One disagreement with the object that showed it, for a message that reproduces it. */
export interface Witness extends Disagreement {
  readonly round: Round;
  readonly input: unknown;
}

/** How one version pair fared. */
export interface PairAgreement {
  readonly source: string;
  readonly target: string;
  /** Conversions compared (objects times rounds). */
  compared: number;
  /** Conversions on which both sides wrote the same (exclusions aside). */
  agreed: number;
  /** Leaf values compared in all, so a comparison cut down to nothing shows as 0 rather than as agreement. */
  leaves: number;
  /** Conversions that agreed only because a named exclusion set a difference aside, by exclusion name. */
  excluded: Record<string, number>;
  /**
   * Conversions in which the restriction to properties both sides define (restrict.ts: schemas that differ,
   * issue 8 items 3-4) set values aside, and how many values in all.
   */
  restricted: { conversions: number; values: number };
  /** Conversions in which `$propertyBag` entries were compared (after the restriction), and how many in all. */
  bags: { conversions: number; entries: number };
  /**
   * Unexplained disagreements by round and pattern (`ours-stored spec.location`): how many conversions showed
   * it, and the first that did.
   */
  disagreements: Map<string, { count: number; first: Witness }>;
  /** What fitting the random input to a storable object cut (see as-stored.ts). */
  fitting: Fitting;
  /** Milliseconds spent converting: by convert(), and by the operator (its processes included). */
  time: { ours: number; operator: number };
  /**
   * Conversions whose first comparison disagreed but whose re-run, both sides again from the object's JSON
   * as drawn (the operator alone in a fresh process), agreed: counted as agreeing, and shown in the figures
   * with the first one's path (see {@link recheckedRecord}).
   */
  unsteady: number;
  /** The first such conversion: where the first answers differed, and which side answered otherwise. */
  unsteadyWitness?: string;
}

/** kubectl-aso's side of the comparison: convert() normally; a test swaps in a wrong one to prove it can fail. */
export type OurConvert = (object: unknown, target: string) => unknown;

/** The random-object arbitrary of a kind at a version, from its group's shapes (generated/<group>/shapes.ts). */
async function arbitraryOf(
  group: string,
  version: string,
  kind: string,
): Promise<fc.Arbitrary<Record<string, unknown>>> {
  const folder = group.replace(/\.azure\.com$/, '');
  const { shapes } = (await import(`../../generated/${folder}/shapes.ts`)) as { shapes: GroupShapes };
  return shapeArbitrary(shapes, version, kind);
}

/**
 * `$propertyBag` entries under names no version of any kind types (`Zz...`), as a later operator release
 * or a hand edit could leave them: a raw string, or JSON text. Both sides must carry them along untouched
 * between storage versions, and neither may read them into a typed property.
 */
const unknownBagEntries = fc.dictionary(
  fc
    .string({ minLength: 1, maxLength: 4, unit: fc.constantFrom(...'abcxyz019'.split('')) })
    .map((s) => `Zz${s}`),
  fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  ),
  { maxKeys: 2 },
);

/**
 * `object` with `entries` added to the `$propertyBag` of its spec and of its status (a status only when it
 * has one), where the operator's schema of the version declares one (storage versions).
 */
function withBagEntries(
  object: Record<string, unknown>,
  entries: Record<string, string>,
  theirs: Schema | undefined,
): Record<string, unknown> {
  if (Object.keys(entries).length === 0) return object;
  const out: Record<string, unknown> = { ...object };
  for (const part of ['spec', 'status']) {
    const declares = theirs?.properties?.[part]?.properties?.$propertyBag !== undefined;
    const value = out[part];
    if (!declares || value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const current = (value as Record<string, unknown>).$propertyBag;
    const bag = current !== null && typeof current === 'object' ? (current as Record<string, string>) : {};
    out[part] = { ...value, $propertyBag: { ...bag, ...entries } };
  }
  return out;
}

/** A seed per pair derived from the run's seed, so that one pair is replayed without the others. */
function pairSeed(seed: number, kind: SharedKind, source: string, target: string): number {
  let hash = seed >>> 0;
  for (const char of `${kind.group}/${kind.kind}/${source}/${target}`) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}

function ourOutcome(ourConvert: OurConvert, object: unknown, target: string): Outcome {
  try {
    return { object: ourConvert(object, target) as Record<string, unknown> };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

async function operatorOutcomes(
  objects: readonly unknown[],
  apiVersion: string,
  release?: string,
): Promise<Outcome[]> {
  if (objects.length === 0) return [];
  const results = await convertWithOperator(objects, apiVersion, release);
  return objects.map((_, index) => {
    const result = results[index];
    if (result === undefined) return { error: 'the operator gave no answer' };
    return 'object' in result ? { object: result.object } : { error: result.error };
  });
}

/**
 * Compares `count` random objects of `kind` from `source` to `target` in the three {@link rounds}, with one
 * operator process per batch of objects (two per pair: the direct conversions, then both sides' stored
 * objects read back).
 */
export async function comparePair(
  kind: SharedKind,
  source: string,
  target: string,
  count: number,
  seed: number,
  ourConvert: OurConvert = convert,
): Promise<PairAgreement> {
  const result: PairAgreement = {
    source,
    target,
    compared: 0,
    agreed: 0,
    leaves: 0,
    excluded: {},
    restricted: { conversions: 0, values: 0 },
    bags: { conversions: 0, entries: 0 },
    disagreements: new Map(),
    fitting: { wrongType: 0, timestamps: 0 },
    time: { ours: 0, operator: 0 },
    unsteady: 0,
  };
  const timed = async <T>(side: 'ours' | 'operator', work: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await work();
    result.time[side] += performance.now() - start;
    return value;
  };
  const arbitrary = await arbitraryOf(kind.group, source, kind.kind);
  const drawn = fc.sample(fc.tuple(arbitrary, unknownBagEntries), {
    numRuns: count,
    seed: pairSeed(seed, kind, source, target),
  });
  const inputs = drawn.map(([object, entries]) =>
    withBagEntries(
      asStored(object, kind.ours.get(source), kind.theirs.get(source), result.fitting),
      entries,
      kind.theirs.get(source),
    ),
  );
  const toTarget = `${kind.group}/${target}`;
  const forth: VersionSchemas = {
    source: { ours: kind.ours.get(source), theirs: kind.theirs.get(source) },
    target: { ours: kind.ours.get(target), theirs: kind.theirs.get(target) },
  };
  const back: VersionSchemas = { source: forth.target, target: forth.source };

  // Each object's JSON before either side sees it: a re-run starts from exactly what was drawn.
  const drawnText = inputs.map((input) => JSON.stringify(input));
  const operatorDirect = await timed('operator', () => operatorOutcomes(inputs, toTarget, kind.release));
  const oursDirect = await timed('ours', () => inputs.map((input) => ourOutcome(ourConvert, input, target)));
  // Objects the operator refuses to convert for a bag entry of another version's shape: convert() keeps the
  // entry instead, and their stored copies are not read back (the operator never stores such an object).
  const refusedPulls = new Set<number>();
  for (const [index, input] of inputs.entries()) {
    const text = drawnText[index] as string;
    if (keptWhereOperatorRefusesToPull(ourConvert, input, target, oursDirect[index], operatorDirect[index])) {
      refusedPulls.add(index);
      result.compared += 1;
      result.agreed += 1;
      result.excluded[pullRefusal] = (result.excluded[pullRefusal] ?? 0) + 1;
      continue;
    }
    await recheckedRecord(
      result,
      'direct',
      input,
      oursDirect[index] as Outcome,
      operatorDirect[index] as Outcome,
      forth,
      () => rerun(text, toTarget, target, ourConvert, timed, kind.release),
    );
  }

  // What each side stored at the target, as the API server keeps it (pruned by the real CRD), read back.
  const stored = (outcomes: Outcome[]) =>
    outcomes.flatMap((outcome) =>
      'object' in outcome ? [prunedTo(outcome.object, kind.theirs.get(target))] : [],
    );
  const byOperator = stored(operatorDirect);
  const byUs = stored(oursDirect.filter((_, index) => !refusedPulls.has(index)));
  const operatorBack = await timed('operator', () =>
    operatorOutcomes([...byOperator, ...byUs], `${kind.group}/${source}`, kind.release),
  );
  const readBack = [
    ...byOperator.map((object) => ({ round: 'operator-stored' as const, object })),
    ...byUs.map((object) => ({ round: 'ours-stored' as const, object })),
  ];
  const storedText = readBack.map(({ object }) => JSON.stringify(object));
  const oursBack = await timed('ours', () =>
    readBack.map(({ object }) => ourOutcome(ourConvert, object, source)),
  );
  for (const [index, { round, object }] of readBack.entries()) {
    const text = storedText[index] as string;
    await recheckedRecord(
      result,
      round,
      object,
      oursBack[index] as Outcome,
      operatorBack[index] as Outcome,
      back,
      () => rerun(text, `${kind.group}/${source}`, source, ourConvert, timed, kind.release),
    );
  }
  return result;
}

/** The name under which a conversion the operator refuses for a bag entry's shape is counted. */
export const pullRefusal = 'operator-refuses-bag-shape';

/**
 * Whether the operator refused the conversion because a `$propertyBag` entry holds another version's shape
 * of the property its target types (its `PropertyBag.Pull` fails: `pulling 'Autoscale' from propertyBag:
 * ... json: cannot unmarshal array`; AKS 2024-04-02-preview's list of autoscale profiles cannot become
 * 2025-10-02-preview's one) while convert() converted and kept that entry, whole, in a bag of its result
 * (with leftovers kept, so also at an API version, where manifest conversion names it as a loss). The one
 * known place where the two differ by design: kubectl-aso keeps what the operator refuses.
 */
function keptWhereOperatorRefusesToPull(
  ourConvert: OurConvert,
  input: unknown,
  target: string,
  ours: Outcome | undefined,
  operator: Outcome | undefined,
): boolean {
  if (ours === undefined || operator === undefined || !('object' in ours) || !('error' in operator))
    return false;
  const entry = /pulling '(\w+)' from propertyBag: .*json: cannot unmarshal/.exec(operator.error)?.[1];
  if (entry === undefined) return false;
  try {
    return holdsBagEntry(
      keepingLeftovers(() => ourConvert(input, target)),
      entry,
    );
  } catch {
    return false;
  }
}

function holdsBagEntry(value: unknown, entry: string): boolean {
  if (Array.isArray(value)) return value.some((item) => holdsBagEntry(item, entry));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, child]) =>
    key === '$propertyBag' && child !== null && typeof child === 'object'
      ? Object.hasOwn(child, entry)
      : holdsBagEntry(child, entry),
  );
}

/** Both sides' answers for one object converted again from its JSON: ours, and the operator's alone. */
interface Rerun {
  ours: Outcome;
  operator: Outcome | undefined;
}

async function rerun(
  text: string,
  apiVersion: string,
  target: string,
  ourConvert: OurConvert,
  timed: <T>(side: 'ours' | 'operator', work: () => T | Promise<T>) => Promise<T>,
  release?: string,
): Promise<Rerun> {
  const ours = await timed('ours', () => ourOutcome(ourConvert, JSON.parse(text), target));
  const [operator] = await timed('operator', () => operatorOutcomes([JSON.parse(text)], apiVersion, release));
  return { ours, operator };
}

/**
 * Records one conversion. Where the first comparison leaves a difference no exclusion explains, both
 * sides convert the object again from its JSON as it was drawn (or stored), the operator alone in a
 * fresh process. A convert() that answers the same input otherwise the second time is a disagreement of
 * its own (`convert() is not deterministic`): kubectl-aso must be. Otherwise the second comparison is
 * the one judged, and a verdict it changes is counted in `unsteady` with its first witness printed. Full
 * CI runs have seen a handful of operator answers, in the millions, lack a key of an `operatorSpec` map
 * (a key Go escapes in JSON, `>` or `&`, in the two seen) that the same object converted alone again kept.
 */
async function recheckedRecord(
  result: PairAgreement,
  round: Round,
  input: Record<string, unknown>,
  ours: Outcome,
  theirs: Outcome,
  schemas: VersionSchemas,
  again: () => Promise<Rerun>,
): Promise<void> {
  const judged = verdictOf(compareOutcomes(ours, theirs, schemas));
  if (judged.unexplained.length > 0) {
    const second = await again();
    if (!sameJson(second.ours, ours)) {
      judged.unexplained.push({
        path: '(convert)',
        pattern: 'convert() is not deterministic',
        ours,
        operator: second.ours,
      });
    } else if (second.operator !== undefined) {
      const rejudged = verdictOf(compareOutcomes(ours, second.operator, schemas));
      if (rejudged.unexplained.length === 0) {
        result.unsteady += 1;
        const first = judged.unexplained[0];
        result.unsteadyWitness ??= `${round} ${first?.path}: operator first ${JSON.stringify(first?.operator)}, then as ours`;
        record(result, round, input, rejudged);
        return;
      }
    }
  }
  record(result, round, input, judged);
}

/** One comparison with its differences split once into those no exclusion explains and the exclusions used. */
type Verdict = ReturnType<typeof compareOutcomes> & { unexplained: Disagreement[]; applied: Set<string> };

function verdictOf(compared: ReturnType<typeof compareOutcomes>): Verdict {
  const unexplained: Disagreement[] = [];
  const applied = new Set<string>();
  for (const disagreement of compared.found) {
    const explained = exclusionsFor(disagreement);
    if (explained) for (const exclusion of explained) applied.add(exclusion.name);
    else unexplained.push(disagreement);
  }
  return { ...compared, unexplained, applied };
}

function record(
  result: PairAgreement,
  round: Round,
  input: Record<string, unknown>,
  { leaves, cut, bagEntries, unexplained, applied }: Verdict,
): void {
  result.compared += 1;
  result.leaves += leaves;
  if (cut > 0) {
    result.restricted.conversions += 1;
    result.restricted.values += cut;
  }
  if (bagEntries > 0) {
    result.bags.conversions += 1;
    result.bags.entries += bagEntries;
  }
  if (unexplained.length === 0) {
    result.agreed += 1;
    for (const name of applied) result.excluded[name] = (result.excluded[name] ?? 0) + 1;
    return;
  }
  for (const disagreement of unexplained) {
    const key = `${round} ${disagreement.pattern}`;
    const seen = result.disagreements.get(key);
    if (seen) seen.count += 1;
    else result.disagreements.set(key, { count: 1, first: { ...disagreement, round, input } });
  }
}

/** One kind's figures over every shared version pair. */
export interface KindFigures {
  readonly kind: SharedKind;
  readonly pairs: readonly PairAgreement[];
  readonly compared: number;
  readonly agreed: number;
  readonly leaves: number;
  readonly bags: { readonly conversions: number; readonly entries: number };
  readonly excluded: Readonly<Record<string, number>>;
  readonly restricted: { readonly conversions: number; readonly values: number };
  /** Input values dropped because the operator's schema types them otherwise (as-stored.ts). */
  readonly wrongTypeInputs: number;
  /** Conversions judged on the operator's single-object re-run (see `PairAgreement.unsteady`). */
  readonly unsteady: number;
}

/**
 * Runs {@link comparePair} for every shared version pair of `kind` and adds the figures up. Two pairs at a
 * time by default: one pair's comparison runs in Node while the other's batch runs in the Go process (the
 * bench runs one at a time, so that each side's time is its own).
 */
export async function compareKindRandomly(
  kind: SharedKind,
  count: number,
  seed: number,
  ourConvert: OurConvert = convert,
  concurrency = 2,
): Promise<KindFigures> {
  const pairs = await mapConcurrently(versionPairs(kind), concurrency, ({ source, target }) =>
    comparePair(kind, source, target, count, seed, ourConvert),
  );
  return figuresOf(kind, pairs);
}

/** The figures of `kind` added up over its compared `pairs`. */
export function figuresOf(kind: SharedKind, pairs: readonly PairAgreement[]): KindFigures {
  const sum = (pick: (pair: PairAgreement) => number) => pairs.reduce((total, pair) => total + pick(pair), 0);
  const excluded: Record<string, number> = {};
  for (const pair of pairs) {
    for (const [name, n] of Object.entries(pair.excluded)) excluded[name] = (excluded[name] ?? 0) + n;
  }
  return {
    kind,
    pairs,
    compared: sum((pair) => pair.compared),
    agreed: sum((pair) => pair.agreed),
    leaves: sum((pair) => pair.leaves),
    bags: { conversions: sum((pair) => pair.bags.conversions), entries: sum((pair) => pair.bags.entries) },
    excluded,
    restricted: {
      conversions: sum((pair) => pair.restricted.conversions),
      values: sum((pair) => pair.restricted.values),
    },
    wrongTypeInputs: sum((pair) => pair.fitting.wrongType),
    unsteady: sum((pair) => pair.unsteady),
  };
}

/** The figures as one line, for the test's output and the bench's table. */
export function figuresLine(figures: KindFigures): string {
  const excluded = Object.entries(figures.excluded)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  return (
    `${figures.kind.kind}: ${figures.agreed} of ${figures.compared} conversions agree ` +
    `(${figures.pairs.length} pairs, ${figures.leaves} values; bags compared in ${figures.bags.conversions}, ` +
    `${figures.bags.entries} entries); ` +
    `exclusions: ${excluded || 'none'}; restricted to shared properties: ${figures.restricted.conversions} ` +
    `conversions (${figures.restricted.values} values); input values of another type: ${figures.wrongTypeInputs}; ` +
    `operator batch answers its single-object re-run overturned: ${figures.unsteady}`
  );
}

/** Every unexplained disagreement of a kind, one paragraph each with the object that reproduces it. */
export function disagreementReport(figures: KindFigures): string[] {
  return figures.pairs.flatMap((pair) =>
    [...pair.disagreements.values()].map(
      ({ count, first }) =>
        `${figures.kind.kind} ${first.round === 'direct' ? `${pair.source} -> ${pair.target}` : `${pair.target} -> ${pair.source}`} ` +
        `[${first.round}] ${first.pattern} (${count}x): ` +
        `ours ${JSON.stringify(first.ours)} operator ${JSON.stringify(first.operator)}\n  input: ${JSON.stringify(first.input)}`,
    ),
  );
}

/** `value` with every `$propertyBag` in it, at any depth, replaced by what `rewrite` makes of its entries. */
export function withBagsRewritten(
  value: unknown,
  rewrite: (entries: [string, string][]) => [string, string][],
): Record<string, unknown> {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, child]) => {
        if (key !== '$propertyBag' || child === null || typeof child !== 'object') return [key, walk(child)];
        return [key, Object.fromEntries(rewrite(Object.entries(child as Record<string, string>)))];
      }),
    );
  };
  return walk(value) as Record<string, unknown>;
}

/** `value` without the bag entries whose names match `names`. */
export function withoutBagEntries(value: unknown, names: RegExp): Record<string, unknown> {
  return withBagsRewritten(value, (entries) => entries.filter(([name]) => !names.test(name)));
}
