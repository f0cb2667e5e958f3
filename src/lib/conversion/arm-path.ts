import {
  type ArmFields,
  type ArmLayout,
  type ArmObject,
  type ArmPlaced,
  type ArmValue,
  unplaced,
} from './arm.ts';

type Unplaced = Exclude<ArmValue, ArmPlaced>;

/**
 * Where a spec property lands in the ARM body the layout sends (`spec.network.delegatedSubnetResourceReference`
 * -> `properties.network.delegatedSubnetResourceId`), walked exactly as `armBodyParts` sends a spec: root or
 * `properties`, a placed property's own `at`, a transformed property's ARM name. `[*]` (any element) is kept
 * as it is. It exists so what the catalog says of a spec path (unchangeable, write-only) is matched against
 * the what-if's ARM paths where the body really puts it; undefined for a path the layout does not send.
 */
export function armPathOf(specPath: string, layout: ArmLayout): string | undefined {
  const steps = stepsOf(specPath);
  if (steps[0] !== 'spec') return undefined;
  let fields: ArmFields;
  let rest = steps.slice(1);
  // The resource's name is its azureName (a oneOf resource's too); `owner` is never part of the body.
  if (rest.length === 1 && rest[0] === 'azureName') return 'name';
  if (layout.kind === 'plain') fields = layout.spec;
  else {
    const leaf = layout.leaves.find((l) => l.property === rest[0]);
    if (!leaf) return undefined;
    fields = leaf.spec;
    rest = rest.slice(1);
  }
  const [top, ...below] = rest;
  if (top === undefined) return undefined;
  const base = fields.root.includes(top) ? '' : fields.properties.includes(top) ? 'properties.' : undefined;
  if (base === undefined) return undefined;
  const shape = fields.values?.[top] ?? 0;
  // A placed property's `at` is relative to the whole body, not to the `properties` it is listed under.
  const start = propertyStep(top, shape, shape !== 0 && 'at' in shape ? '' : base);
  return start && walk(start.path, start.shape, below, layout.objects ?? {});
}

/** `spec.a.b[*].c` as `['spec', 'a', 'b', '[*]', 'c']`. */
function stepsOf(path: string): string[] {
  return path.split('.').flatMap((part) => {
    const bracket = part.indexOf('[');
    return bracket < 0
      ? [part]
      : [part.slice(0, bracket), ...(part.slice(bracket).match(/\[[^\]]*\]/g) ?? [])];
  });
}

/** The ARM path of one property of an object whose own ARM path is `prefix` (empty, or ending in a dot). */
function propertyStep(
  key: string,
  shape: ArmValue,
  prefix: string,
): { path: string; shape: Unplaced } | undefined {
  const value = unplaced(shape);
  const at = shape !== 0 && 'at' in shape ? shape.at : key;
  const dot = at.lastIndexOf('.');
  const container = dot < 0 ? '' : `${at.slice(0, dot)}.`;
  const name = transformedName(value) ?? at.slice(dot + 1);
  return { path: `${prefix}${container}${name}`, shape: value };
}

/** The ARM name a transformation sends its value under, when it has one of its own. */
function transformedName(shape: Unplaced): string | undefined {
  if (shape === 0 || 'object' in shape || 'oneOf' in shape || 'array' in shape || 'map' in shape)
    return undefined;
  if ('reference' in shape) return shape.reference;
  if ('references' in shape) return shape.references;
  if ('secret' in shape) return shape.secret;
  if ('fromConfig' in shape) return shape.fromConfig;
  return shape.identities;
}

function walk(
  path: string,
  shape: Unplaced,
  steps: readonly string[],
  objects: Readonly<Record<string, ArmObject>>,
): string | undefined {
  const [step, ...rest] = steps;
  if (step === undefined) return path;
  if (shape === 0) return undefined;
  if ('array' in shape || 'map' in shape) {
    if (!step.startsWith('[')) return undefined;
    const inner = 'array' in shape ? shape.array : shape.map;
    return walk(`${path}${step}`, unplaced(inner), rest, objects);
  }
  const type =
    'object' in shape ? objects[shape.object] : 'oneOf' in shape ? objects[shape.oneOf] : undefined;
  const inner = type?.[step];
  if (inner === undefined) return undefined;
  // A union's option is sent in the union's own place: its name is not part of the ARM path.
  if ('oneOf' in shape) return walk(path, unplaced(inner), rest, objects);
  const next = propertyStep(step, inner, `${path}.`);
  return next && walk(next.path, next.shape, rest, objects);
}
