import { join } from 'node:path';
import { convert } from '../../src/lib/conversion/convert.ts';
import { convertWithOperator } from '../fixtures/operator-conversion.ts';
import { differences } from './differences.ts';
import { restrict } from './restrict.ts';
import type { Sample } from './samples.ts';
import { crdFileName, crdSchemasIn, ourSchemas, type Schema } from './schemas.ts';

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
  readonly disagreements: readonly string[];
}

type Outcome = { object: Record<string, unknown> } | { error: string };

/**
 * Converts every sample of `kind` at a version both sides serve to every other version both serve, with
 * kubectl-aso's `convert()` and with the operator's webhook handler, and compares spec, status and bags
 * restricted to the properties both CRD schemas define at the target (bags: at the source).
 */
export async function compareKind(
  kind: KindUnderTest,
  samples: readonly Sample[],
  realCrdDir: string,
): Promise<KindAgreement> {
  const plural = `${kind.kind.toLowerCase()}s`;
  const ours = ourSchemas(kind.group, plural);
  const theirs = crdSchemasIn(join(realCrdDir, crdFileName(kind.group, plural))) ?? new Map<string, Schema>();
  const shared = kind.versions.filter((version) => ours.has(version) && theirs.has(version));
  const inputs = samples.filter(
    (sample) =>
      sample.object.kind === kind.kind &&
      shared.some((version) => sample.object.apiVersion === `${kind.group}/${version}`),
  );
  let compared = 0;
  let agreed = 0;
  const disagreements: string[] = [];
  for (const target of shared) {
    const sources = inputs.filter((sample) => sample.object.apiVersion !== `${kind.group}/${target}`);
    if (sources.length === 0) continue;
    const operator = await convertWithOperator(
      sources.map((sample) => sample.object),
      `${kind.group}/${target}`,
    );
    sources.forEach((sample, index) => {
      const source = sample.object.apiVersion.slice(kind.group.length + 1);
      const mine = ourConversion(sample.object, target);
      const theirsOut: Outcome = operator[index] ?? { error: 'no answer' };
      const found = compareOutcomes(mine, theirsOut, {
        target: { ours: ours.get(target), theirs: theirs.get(target) },
        source: { ours: ours.get(source), theirs: theirs.get(source) },
      });
      compared += 1;
      if (found.length === 0) agreed += 1;
      else disagreements.push(`${sample.file} ${source} -> ${target}:\n  ${found.join('\n  ')}`);
    });
  }
  return { shared, compared, agreed, disagreements };
}

function ourConversion(object: unknown, target: string): Outcome {
  try {
    return { object: convert(object, target) as unknown as Record<string, unknown> };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

interface Schemas {
  target: { ours?: Schema; theirs?: Schema };
  source: { ours?: Schema; theirs?: Schema };
}

function compareOutcomes(mine: Outcome, theirs: Outcome, schemas: Schemas): string[] {
  if ('error' in mine || 'error' in theirs) {
    if ('error' in mine && 'error' in theirs) return [];
    return [
      'error' in mine
        ? `kubectl-aso failed (${mine.error}), the operator converted`
        : `the operator failed (${(theirs as { error: string }).error}), kubectl-aso converted`,
    ];
  }
  return ['spec', 'status'].flatMap((part) => {
    const sub = (schema?: Schema) => schema?.properties?.[part];
    const target = { ours: sub(schemas.target.ours), theirs: sub(schemas.target.theirs) };
    const source = { ours: sub(schemas.source.ours), theirs: sub(schemas.source.theirs) };
    return differences(
      restrict(mine.object[part], target, source),
      restrict(theirs.object[part], target, source),
      part,
    );
  });
}
