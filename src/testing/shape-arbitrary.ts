import fc from 'fast-check';
import { bagKey } from '../lib/conversion/property-bag.ts';
import { goValued, withExtras } from './conversion-support.ts';

/**
 * What a property holds, as `generated/<group>/shapes.ts` writes it: a primitive by name, or a named type
 * (enum or object) of the same package, or an array or string-keyed map of values.
 */
export type ValueShape =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'json'
  | { readonly type: string }
  | { readonly array: ValueShape }
  | { readonly map: ValueShape };

/** An enum: the values an arbitrary picks from. */
export interface EnumShape {
  readonly enum: readonly (string | number)[];
}

/** An object type: its properties in order, and what changes how it is drawn. */
export interface ObjectShape {
  readonly properties: readonly (readonly [name: string, value: ValueShape])[];
  /**
   * Required properties of a oneOf type (each variant always draws its common required ones); written only
   * there, as other objects draw every property as optional, so that a storage variant's copy of an API
   * type (required dropped) stays the same shape.
   */
  readonly required?: readonly string[];
  /** The oneOf options (property names): an object gets exactly one of them (seed 004). */
  readonly oneOf?: readonly string[];
  /** One of the operator's runtime types: it keeps no unknown keys, so none are drawn. */
  readonly runtime?: true;
  /** Properties that are Go value fields in the operator's type: a zero value may be left out or written. */
  readonly goValues?: readonly string[];
  /** Names a hook reinterprets at this (older) version: never drawn as extras. */
  readonly reserved?: readonly string[];
}

/** A named type of a package. */
export type TypeShape = EnumShape | ObjectShape;

/** One package (API version or storage variant): its types by name, and each resource's spec and status type. */
export interface PackageShapes {
  readonly types: Readonly<Record<string, TypeShape>>;
  readonly resources: Readonly<Record<string, readonly [spec: string, status: string]>>;
}

/**
 * The random-object description of one group (`generated/<group>/shapes.ts`): it exists because emitting a
 * fast-check arbitrary per type and package as code grew with every version (most types repeat unchanged
 * from one version to the next), while the data shares repeated types and this runtime gives them behaviour.
 */
export interface GroupShapes {
  /** The full group name, e.g. `storage.azure.com`. */
  readonly group: string;
  /** Property names of every API version of the group: extra keys are drawn from these too. */
  readonly names: readonly string[];
  readonly packages: Readonly<Record<string, PackageShapes>>;
}

/**
 * Any JSON value, small: what a `v1.JSON` property holds (a VM extension's settings, a map of identities).
 * Integers stay safe and doubles finite, as JSON text read by both sides must mean one number.
 */
const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.string({ maxLength: 6 }),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie('value'), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 2 }),
  ),
})).value;

/** Keys of a resource root that are never drawn as extras there. */
const rootOwn = ['apiVersion', 'kind', 'metadata', 'spec', 'status'] as const;

/** Built arbitraries per package, one cache for objects with extras and one for objects without. */
const built = {
  extras: new WeakMap<PackageShapes, Map<string, fc.Arbitrary<unknown>>>(),
  none: new WeakMap<PackageShapes, Map<string, fc.Arbitrary<unknown>>>(),
};

/** How {@link arbitraryOf} draws. */
export interface DrawOptions {
  /**
   * Whether objects carry unknown extra properties (default true). Without them an object is what the API
   * server stores, since it prunes what the CRD's structural schema does not define; with them, what a
   * manifest file may hold, and the test that the bag keeps every extra.
   */
  readonly extras?: boolean;
}

/**
 * A random `kind` at `version` of the group: spec (always) and status, unknown extras at every object (the
 * operator's runtime types excepted) and at the root unless `options.extras` is false, apiVersion, kind and
 * a fixed metadata. Types are built on first use and cached per package; for a given seed the values are the
 * ones the emitted arbitraries drew.
 */
export function arbitraryOf(
  shapes: GroupShapes,
  version: string,
  kind: string,
  options: DrawOptions = {},
): fc.Arbitrary<Record<string, unknown>> {
  const extras = options.extras ?? true;
  const pkg = shapes.packages[version];
  if (pkg === undefined) throw new Error(`${shapes.group} has no package ${version}`);
  const resource = pkg.resources[kind];
  if (resource === undefined) throw new Error(`${shapes.group} ${version} has no resource ${kind}`);
  const [spec, status] = resource;
  const types = new TypeArbitraries(shapes, pkg, extras);
  const root = fc.record({ spec: types.of(spec), status: types.of(status) }, { requiredKeys: ['spec'] });
  return (extras ? withExtras(root, shapes.names, rootOwn) : root).map((o) => ({
    ...o,
    apiVersion: `${shapes.group}/${version}`,
    kind,
    metadata: { name: 'sample', namespace: 'default' },
  }));
}

/** The kinds a package of the group has resources for, in the order the data lists them. */
export function kindsOf(shapes: GroupShapes, version: string): string[] {
  return Object.keys(shapes.packages[version]?.resources ?? {});
}

/** Builds and caches the arbitraries of one package's types. */
class TypeArbitraries {
  private readonly shapes: GroupShapes;
  private readonly pkg: PackageShapes;
  private readonly cache: Map<string, fc.Arbitrary<unknown>>;
  private readonly building = new Set<string>();
  private readonly extras: boolean;

  constructor(shapes: GroupShapes, pkg: PackageShapes, extras: boolean) {
    this.shapes = shapes;
    this.pkg = pkg;
    this.extras = extras;
    const caches = extras ? built.extras : built.none;
    let cache = caches.get(pkg);
    if (cache === undefined) {
      cache = new Map();
      caches.set(pkg, cache);
    }
    this.cache = cache;
  }

  of(name: string): fc.Arbitrary<unknown> {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    const shape = this.pkg.types[name];
    if (shape === undefined) throw new Error(`${this.shapes.group}: no type ${name}`);
    // A type reaching itself would recurse for ever, as the emitted code did; say so instead.
    if (this.building.has(name)) throw new Error(`${this.shapes.group}: type ${name} refers to itself`);
    this.building.add(name);
    try {
      const arbitrary = 'enum' in shape ? fc.constantFrom(...shape.enum) : this.object(shape);
      this.cache.set(name, arbitrary);
      return arbitrary;
    } finally {
      this.building.delete(name);
    }
  }

  private object(shape: ObjectShape): fc.Arbitrary<unknown> {
    const required = new Set(shape.required ?? []);
    const options = shape.oneOf ?? [];
    const recordOf = (props: ObjectShape['properties'], requiredKeys: string[]) =>
      fc.record(Object.fromEntries(props.map(([name, value]) => [name, this.value(value)])), {
        requiredKeys,
      });
    let record: fc.Arbitrary<unknown>;
    if (options.length > 0) {
      const common = shape.properties.filter(([name]) => !options.includes(name));
      const commonRequired = common.filter(([name]) => required.has(name)).map(([name]) => name);
      record = fc.oneof(
        ...options.map((option) => {
          const property = shape.properties.find(([name]) => name === option);
          if (property === undefined) throw new Error(`oneOf option ${option} is no property`);
          return recordOf([...common, property], [...commonRequired, option]);
        }),
      );
    } else record = recordOf(shape.properties, []);
    const goValues = shape.goValues;
    if (goValues) record = record.map((o) => goValued(o as object, goValues));
    if (shape.runtime || !this.extras) return record;
    // A property's bag key (the operator's Go name) is no extra either: an extra under it is the operator's
    // entry for that property, and is read as one (see stashUnknown).
    const own = [
      ...shape.properties.flatMap(([name]) => [name, bagKey(name)]),
      '$propertyBag',
      ...(shape.reserved ?? []).flatMap((n) => [n, bagKey(n)]),
    ];
    return withExtras(record as fc.Arbitrary<object>, this.shapes.names, own);
  }

  private value(value: ValueShape): fc.Arbitrary<unknown> {
    switch (value) {
      case 'string':
        return fc.string({ maxLength: 8 });
      case 'integer':
        return fc.maxSafeInteger();
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'json':
        return anyJson;
    }
    if ('type' in value) return this.of(value.type);
    if ('array' in value) return fc.array(this.value(value.array), { maxLength: 2 });
    return fc.dictionary(
      fc.oneof(fc.string({ minLength: 1, maxLength: 4 }), fc.constant('__proto__')),
      this.value(value.map),
      { maxKeys: 2 },
    );
  }
}
