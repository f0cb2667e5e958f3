import type { ObjectShape, PackageShapes, TypeShape, ValueShape } from '../../testing/shape-arbitrary.ts';
import { oneOfOptions, type PackageDef, type TypeDef, type TypeRef } from '../model/types.ts';
import { tsHeader } from './code.ts';

/**
 * `generated/<group>/shapes.ts`: every package's types of one group as data, for the property tests' random
 * objects (src/testing/shape-arbitrary.ts builds the fast-check arbitraries from it). A type description
 * that recurs (most types repeat unchanged from one version to the next) is written once as a constant.
 * Extra keys are drawn from `extraNames` (every property name of every API version of the group);
 * `reservedOf` gives the names hooks reinterpret in a package, by type, which are never drawn as extras;
 * `drawsOf` the JSON properties a hook reads as a typed value, drawn as that type.
 */
export function emitGroupShapes(
  packages: readonly PackageDef[],
  groupName: string,
  extraNames: readonly string[],
  reservedOf: (pkg: PackageDef) => ReadonlyMap<string, readonly string[]>,
  drawsOf: (pkg: PackageDef) => HookDraws = () => noDraws,
): string {
  const sorted = [...packages].sort((a, b) => (a.version < b.version ? -1 : 1));
  const tables = sorted.map((pkg) => ({ pkg, types: typeShapes(pkg, reservedOf(pkg), drawsOf(pkg)) }));
  const counts = new Map<string, number>();
  for (const { types } of tables)
    for (const [, shape] of types) {
      const text = JSON.stringify(shape);
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
  const out: string[] = [tsHeader()];
  out.push(
    `/** Random-object descriptions of ${groupName}, by package (src/testing/shape-arbitrary.ts). */\n`,
  );
  out.push(`import type { GroupShapes, TypeShape } from '../../src/testing/shape-arbitrary.ts';\n`);
  const constants = new Map<string, string>();
  const declarations: string[] = [];
  for (const { types } of tables)
    for (const [, shape] of types) {
      const text = JSON.stringify(shape);
      if ((counts.get(text) ?? 0) < 2 || constants.has(text)) continue;
      const name = `t${constants.size}`;
      constants.set(text, name);
      declarations.push(`const ${name}: TypeShape = ${text};\n`);
    }
  if (declarations.length > 0) {
    out.push('\n// Types that recur (the same type in several versions), written once.\n');
    out.push(...declarations);
  }
  out.push('\n/** Package -> types and resources. */\nexport const shapes: GroupShapes = {\n');
  out.push(`  group: ${JSON.stringify(groupName)},\n`);
  out.push(`  names: ${JSON.stringify(extraNames)},\n  packages: {\n`);
  for (const { pkg, types } of tables) {
    const resources: PackageShapes['resources'] = Object.fromEntries(
      pkg.resources.map((r) => [r.kind, [r.specType, r.statusType] as const]),
    );
    out.push(`    ${JSON.stringify(pkg.version)}: {\n      resources: ${JSON.stringify(resources)},\n`);
    out.push('      types: {\n');
    for (const [name, shape] of types) {
      const text = JSON.stringify(shape);
      out.push(`        ${JSON.stringify(name)}: ${constants.get(text) ?? text},\n`);
    }
    out.push('      },\n    },\n');
  }
  out.push('  },\n};\n');
  return out.join('');
}

/**
 * The JSON properties a hook reads as a type of its own version, in one older package: by type, the
 * property and the type (from the hook's package) its values are drawn as. That type joins the package's
 * table under `hook:<name>`, drawn without extra keys, as the operator's step drops unknown ones.
 */
export interface HookDraws {
  readonly byType: ReadonlyMap<string, ReadonlyMap<string, TypeDef>>;
}

const noDraws: HookDraws = { byType: new Map() };

/** The name a hook's drawn type has in an older package's table. */
function drawnName(def: TypeDef): string {
  return `hook:${def.name}`;
}

/** A package's types by name, sorted by name for stable output. */
function typeShapes(
  pkg: PackageDef,
  reserved: ReadonlyMap<string, readonly string[]>,
  draws: HookDraws,
): [string, TypeShape][] {
  const drawn = new Map<string, TypeShape>();
  for (const properties of draws.byType.values())
    for (const def of properties.values())
      if (def.kind === 'object') drawn.set(drawnName(def), { ...typeShape(def, []), runtime: true });
  const own = [...pkg.types.values()].map(
    (def) =>
      [def.name, typeShape(def, reserved.get(def.name) ?? [], draws.byType.get(def.name))] as [
        string,
        TypeShape,
      ],
  );
  return [...own, ...drawn].sort(([a], [b]) => (a < b ? -1 : 1));
}

function typeShape(
  def: TypeDef,
  reserved: readonly string[],
  draws?: ReadonlyMap<string, TypeDef>,
): TypeShape {
  if (def.kind === 'enum') return { enum: def.values };
  const options = def.oneOf ? oneOfOptions(def).map((p) => p.name) : [];
  const required = def.properties.filter((p) => p.required).map((p) => p.name);
  const drawnAs = (name: string, shape: ValueShape): ValueShape => {
    const as = draws?.get(name);
    return as ? replaceJson(shape, { type: drawnName(as) }) : shape;
  };
  const goValues = def.properties.filter((p) => p.goValue).map((p) => p.name);
  const shape: ObjectShape = {
    properties: def.properties.map((p) => [p.name, drawnAs(p.name, valueShape(p.type))] as const),
    ...(goValues.length > 0 ? { goValues } : {}),
    // Only oneOf variants draw required keys; elsewhere they would only tell equal shapes apart.
    ...(options.length > 0 && required.length > 0 ? { required } : {}),
    ...(options.length > 0 ? { oneOf: options } : {}),
    ...(def.runtime ? { runtime: true as const } : {}),
    ...(reserved.length > 0 ? { reserved } : {}),
  };
  return shape;
}

/** `shape` with its JSON leaf (the value, or a list's element, or a map's value) drawn as `as`. */
function replaceJson(shape: ValueShape, as: ValueShape): ValueShape {
  if (shape === 'json') return as;
  if (typeof shape === 'object' && 'array' in shape) return { array: replaceJson(shape.array, as) };
  if (typeof shape === 'object' && 'map' in shape) return { map: replaceJson(shape.map, as) };
  return shape;
}

function valueShape(ref: TypeRef): ValueShape {
  switch (ref.kind) {
    case 'primitive':
      return ref.primitive;
    case 'enum':
    case 'object':
      return { type: ref.name };
    case 'array':
      return { array: valueShape(ref.element) };
    case 'map':
      return { map: valueShape(ref.value) };
  }
}
