import { join } from 'node:path';
import { convert } from '../../src/lib/conversion/convert.ts';
import { convertWithOperator } from '../fixtures/operator-conversion.ts';
import { prunedTo } from './as-stored.ts';
import { differences } from './differences.ts';
import { restrict } from './restrict.ts';
import type { Sample } from './samples.ts';
import { crdFileOfKind, crdSchemasIn, ourSchemas, pluralOfKind, type Schema } from './schemas.ts';

/** A generated kind as the comparison needs it. */
export interface KindUnderTest {
  readonly group: string;
  readonly kind: string;
  /** Every version kubectl-aso serves for the kind, API and storage. */
  readonly versions: readonly string[];
}

/** How one kind's samples fared: conversions compared, how many agreed, and what the others said. */
export interface KindAgreement {
  readonly shared: readonly string[];
  readonly compared: number;
  readonly agreed: number;
  /** Leaf values compared in all (so a comparison cut down to nothing shows as 0, not as agreement). */
  readonly leaves: number;
  readonly disagreements: readonly string[];
}

type Outcome = { object: Record<string, unknown> } | { error: string };

/**
 * Converts every sample of `kind` at a version both sides serve to every other version both serve, with
 * kubectl-aso's `convert()` and with the operator's webhook handler, and compares spec, status and bags
 * restricted to the properties both CRD schemas define at the target (bags: at the source). `release` names
 * an earlier operator release as the referee, with `realCrdDir` holding its CRDs.
 */
export async function compareKind(
  kind: KindUnderTest,
  samples: readonly Sample[],
  realCrdDir: string,
  ourConvert: (object: unknown, target: string) => unknown = convert,
  release?: string,
): Promise<KindAgreement> {
  const ours = ourSchemas(kind.group, pluralOfKind(kind.group, kind.kind));
  const theirs =
    crdSchemasIn(join(realCrdDir, crdFileOfKind(kind.group, kind.kind))) ?? new Map<string, Schema>();
  const shared = kind.versions.filter((version) => ours.has(version) && theirs.has(version));
  // A sample as the API server stores it: pruned to the real CRD at its version. Some samples spell a
  // property as no CRD does (SmartDetectorAlertRule's `GroupReferences`); no cluster holds that.
  const sampled = samples
    .filter(
      (sample) =>
        sample.object.kind === kind.kind &&
        shared.some((version) => sample.object.apiVersion === `${kind.group}/${version}`),
    )
    .map((sample) => ({
      ...sample,
      object: prunedTo(
        sample.object,
        theirs.get(sample.object.apiVersion.slice(kind.group.length + 1)),
      ) as Sample['object'],
    }));
  const inputs = [...sampled, ...(await storedByEachSide(kind.group, sampled, shared, ourConvert, release))];
  let compared = 0;
  let agreed = 0;
  let leaves = 0;
  const disagreements: string[] = [];
  for (const target of shared) {
    const sources = inputs.filter((sample) => sample.object.apiVersion !== `${kind.group}/${target}`);
    if (sources.length === 0) continue;
    const operator = await convertWithOperator(
      sources.map((sample) => sample.object),
      `${kind.group}/${target}`,
      release,
    );
    sources.forEach((sample, index) => {
      const source = sample.object.apiVersion.slice(kind.group.length + 1);
      const mine = ourConversion(ourConvert, sample.object, target);
      const theirsOut: Outcome = operator[index] ?? { error: 'no answer' };
      const { found, compared: counted } = compareOutcomes(mine, theirsOut, {
        target: { ours: ours.get(target), theirs: theirs.get(target) },
        source: { ours: ours.get(source), theirs: theirs.get(source) },
      });
      compared += 1;
      leaves += counted;
      if (found.length === 0) agreed += 1;
      else disagreements.push(`${sample.file} ${source} -> ${target}:\n  ${found.join('\n  ')}`);
    });
  }
  return { shared, compared, agreed, leaves, disagreements };
}

/**
 * The samples as each side stores them: converted to every shared storage version by the operator and by
 * convert(), so that each side then reads the other's stored objects, bags included, both ways round.
 */
async function storedByEachSide(
  group: string,
  sampled: readonly Sample[],
  shared: readonly string[],
  ourConvert: (object: unknown, target: string) => unknown,
  release?: string,
): Promise<Sample[]> {
  const stored: Sample[] = [];
  for (const version of shared.filter((v) => v.endsWith('storage'))) {
    const operator = await convertWithOperator(
      sampled.map((sample) => sample.object),
      `${group}/${version}`,
      release,
    );
    sampled.forEach((sample, index) => {
      const byOperator = operator[index];
      if (byOperator && 'object' in byOperator) {
        stored.push({
          file: `${sample.file} (stored by the operator)`,
          object: byOperator.object as Sample['object'],
        });
      }
      const byUs = ourConversion(ourConvert, sample.object, version);
      if ('object' in byUs) {
        stored.push({
          file: `${sample.file} (stored by convert())`,
          object: byUs.object as Sample['object'],
        });
      }
    });
  }
  return stored;
}

function ourConversion(
  ourConvert: (object: unknown, target: string) => unknown,
  object: unknown,
  target: string,
): Outcome {
  try {
    return { object: ourConvert(object, target) as Record<string, unknown> };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

interface Schemas {
  target: { ours?: Schema; theirs?: Schema };
  source: { ours?: Schema; theirs?: Schema };
}

function compareOutcomes(
  mine: Outcome,
  theirs: Outcome,
  schemas: Schemas,
): { found: string[]; compared: number } {
  if ('error' in mine || 'error' in theirs) {
    if ('error' in mine && 'error' in theirs) return { found: [], compared: 1 };
    const found =
      'error' in mine
        ? `kubectl-aso failed (${mine.error}), the operator converted`
        : `the operator failed (${(theirs as { error: string }).error}), kubectl-aso converted`;
    return { found: [found], compared: 1 };
  }
  let compared = 0;
  const found = ['spec', 'status'].flatMap((part) => {
    const sub = (schema?: Schema) => schema?.properties?.[part];
    const target = { ours: sub(schemas.target.ours), theirs: sub(schemas.target.theirs) };
    const source = { ours: sub(schemas.source.ours), theirs: sub(schemas.source.theirs) };
    const ours = withoutEmpty(restrict(mine.object[part], target, source));
    const operator = withoutEmpty(restrict(theirs.object[part], target, source));
    compared += leafCount(operator);
    return differences(ours, operator, part);
  });
  return { found, compared };
}

function leafCount(value: unknown): number {
  if (value === undefined) return 0;
  if (value === null || typeof value !== 'object') return 1;
  return Object.values(value).reduce<number>((sum, child) => sum + leafCount(child), 0);
}

/**
 * `value` without empty objects: the operator's Go structs serialise an absent status or bag as `{}` where
 * convert() leaves the key out, and both mean the same to the API server and to every reader.
 */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const kept = withoutEmpty(child);
    const empty =
      kept !== null && typeof kept === 'object' && !Array.isArray(kept) && Object.keys(kept).length === 0;
    if (!empty) out[key] = kept;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
