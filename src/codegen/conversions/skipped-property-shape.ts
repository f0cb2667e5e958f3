import type { PackageDef, PropertyDef, TypeRef } from '../model/types.ts';
import { matchByName } from './handlers/match-by-name.ts';

/**
 * The storage packages that convert up into a package, across every kind of its group: where a value in the
 * package's property bag can have come from.
 */
export type PackagesBelow = (pkg: PackageDef) => readonly PackageDef[];

/** The shape a skipped property's value has in a bag: its type in the package the value came up from. */
export interface SkippedPropertyShape {
  readonly pkg: PackageDef;
  readonly type: TypeRef;
}

/**
 * A property can skip a storage version: API Management's `Backend` has `circuitBreaker` at 2023-05-01-preview
 * and 2024-05-01 but not at 2022-08-01, and the preview joins the chain at 2022-08-01. The value then rides
 * in 2022-08-01's bag in the preview's shape. When that shape differs from the property's type above, the
 * operator's generator writes storage "compat" types (a copy of the lower shape in a `compat` package beside
 * the version skipped) and converts through them on both sides of the link above, so that the bag keeps one
 * shape whichever way the value came in.
 *
 * This finds that lower shape for `property` (paired by name as between versions) of type `typeName` in `lower` (the package lacking it), whose
 * counterpart in `upper` has `upperType`: the first package below `lower`, through packages whose type of
 * that name also lacks the property, that has it. Undefined when none has it, or when its shape is the same
 * as above, where the value needs no conversion (as the operator writes no compat type for it).
 */
export function skippedPropertyShape(
  lower: PackageDef,
  typeName: string,
  property: PropertyDef,
  upper: PackageDef,
  upperType: TypeRef,
  below: PackagesBelow,
): SkippedPropertyShape | undefined {
  const seen = new Set<string>();
  const queue = [...below(lower)];
  while (queue.length > 0) {
    const pkg = queue.shift()!;
    if (seen.has(pkg.version)) continue;
    seen.add(pkg.version);
    const def = typeNamed(pkg, typeName);
    if (def?.kind !== 'object') continue;
    const found = matchByName(property, def.properties);
    if (found === undefined) {
      queue.push(...below(pkg));
      continue;
    }
    return shapeOf(pkg, found.type) === shapeOf(upper, upperType) ? undefined : { pkg, type: found.type };
  }
  return undefined;
}

function typeNamed(pkg: PackageDef, name: string): ReturnType<PackageDef['types']['get']> {
  const exact = pkg.types.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const [n, def] of pkg.types) if (n.toLowerCase() === lower) return def;
  return undefined;
}

/**
 * A type's structure, independent of its package: property names and their types, all the way down. An
 * enum counts as its base type, since a storage version holds enums as plain values.
 */
export function shapeOf(pkg: PackageDef, ref: TypeRef, open: ReadonlySet<string> = new Set()): string {
  switch (ref.kind) {
    case 'primitive':
      return ref.primitive;
    case 'enum': {
      const def = pkg.types.get(ref.name);
      return def?.kind === 'enum' ? def.base : 'string';
    }
    case 'array':
      return `[${shapeOf(pkg, ref.element, open)}]`;
    case 'map':
      return `{*:${shapeOf(pkg, ref.value, open)}}`;
    case 'object': {
      // A recursive type refers back to itself: its name stands for it below the first occurrence.
      if (open.has(ref.name)) return `@${ref.name.toLowerCase()}`;
      const def = pkg.types.get(ref.name);
      if (def?.kind !== 'object') return `?${ref.name}`;
      const inner = new Set(open).add(ref.name);
      const props = [...def.properties].map((p) => `${p.name}:${shapeOf(pkg, p.type, inner)}`).sort();
      return `{${props.join(',')}}`;
    }
  }
}
