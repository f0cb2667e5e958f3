import type { ArmResolvers } from '../../src/lib/conversion/arm.ts';
import { isObject } from '../../src/lib/conversion/checks.ts';

/**
 * How the ARM differential resolves what only a cluster could: the same fixed rules as the operator's side
 * (test/operator-conversion/arm.go), so both convert with identical resolved details. A reference by name
 * becomes a made-up ARM ID naming its group, kind and name (an ARM ID reference is used as given by both); a
 * config map key becomes text naming it. Secrets are never read here: the operator's side fills them with
 * `secret:NAME/KEY` and the comparison checks it put them where kubectl-aso says a secret goes.
 */
export const differentialResolvers: ArmResolvers = {
  // Only a reference the operator accepts (group, kind and name all given) names an object to resolve.
  armIdOf: (reference) =>
    reference.group && reference.kind && reference.name
      ? `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/differential/providers/${reference.group}/${reference.kind}/${reference.name}`
      : undefined,
  configMapValue: (reference) =>
    reference.name && reference.key ? `configmap:${reference.name}/${reference.key}` : undefined,
};

const secretValue = /^secret:/;

/** A secret's value as the operator's side fills it: the text, or a secret map of such texts. */
function isSecretValue(value: unknown): boolean {
  if (typeof value === 'string') return secretValue.test(value);
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string' && secretValue.test(v));
}

/** One place where kubectl-aso's ARM body and the operator's differ. */
export interface ArmDisagreement {
  /** The path in the body, e.g. `properties.ipConfigurations[0].subnet`. */
  readonly path: string;
  /** The path with indices as `[]` and map keys kept: the same for every object that differs there. */
  readonly pattern: string;
  readonly ours: unknown;
  readonly operator: unknown;
}

/** The outcome of comparing one object's two bodies. */
export interface ArmComparison {
  readonly disagreements: ArmDisagreement[];
  /** Secrets the operator filled exactly where kubectl-aso said one goes. */
  readonly secrets: number;
}

/**
 * Compares the body kubectl-aso predicts (with where it says secrets go) with the operator's. Each secret
 * path must hold the operator's filled-in secret, which is then set aside; a secret the operator sends
 * anywhere else is a disagreement, as is every other difference, down to a `null` the operator's encoder
 * writes for an unset list and an empty list it leaves out.
 */
export function compareArmBodies(
  ours: Record<string, unknown>,
  secretsAt: readonly string[],
  operator: Record<string, unknown>,
): ArmComparison {
  const theirs = structuredClone(operator);
  const disagreements: ArmDisagreement[] = [];
  let secrets = 0;
  for (const path of secretsAt) {
    const taken = takeAt(theirs, path);
    if (isSecretValue(taken)) secrets++;
    else disagreements.push({ path, pattern: patternOf(path), ours: '(a secret)', operator: taken });
  }
  walk(ours, theirs, '', disagreements);
  return { disagreements, secrets };
}

function walk(ours: unknown, theirs: unknown, path: string, out: ArmDisagreement[]): void {
  if (isObject(ours) && isObject(theirs)) {
    for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)]))
      walk(ours[key], theirs[key], path === '' ? key : `${path}.${key}`, out);
    return;
  }
  if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length) {
    for (const [i, element] of ours.entries()) walk(element, theirs[i], `${path}[${i}]`, out);
    return;
  }
  if (JSON.stringify(ours) === JSON.stringify(theirs)) return;
  out.push({ path, pattern: patternOf(path), ours, operator: theirs });
}

/** Removes and returns the value at an ARM path (`a.b[0].c["k.1"]`); undefined when nothing is there. */
function takeAt(body: Record<string, unknown>, path: string): unknown {
  // Segments: `name`, `[0]` (a list index), `["key"]` (a map key, JSON-quoted as it may hold dots).
  const keys = [...path.matchAll(/\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]|([^.[\]]+)/g)].map((m) =>
    m[1] !== undefined ? (JSON.parse(m[1]) as string) : m[2] !== undefined ? Number(m[2]) : m[3],
  );
  let current: unknown = body;
  for (const key of keys.slice(0, -1)) {
    if (typeof key === 'number') current = Array.isArray(current) ? current[key] : undefined;
    else current = isObject(current) ? current[key as string] : undefined;
  }
  const last = keys[keys.length - 1];
  if (typeof last === 'string' && isObject(current) && Object.hasOwn(current, last)) {
    const value = current[last];
    delete current[last];
    return value;
  }
  return undefined;
}

function patternOf(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}
