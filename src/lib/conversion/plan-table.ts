/**
 * The conversion core as data (issue 23): what the generator writes per group instead of a function per
 * type conversion. {@link compileTypeConversion} turns one entry into a function on first use, so the code
 * that runs is the same straight-line code the generator used to emit, at a fraction of its size.
 */

/**
 * How one value is carried across: a checked primitive (`s` string, `i` integer, `n` number, `b` boolean),
 * any JSON value copied whole (`j`),
 * a string checked and put into the destination enum's declared spelling, an object converted by the named
 * type conversion, or an array or map converted element-wise.
 */
export type ValuePlan =
  | 's'
  | 'i'
  | 'n'
  | 'b'
  | 'j'
  | { readonly spell: readonly string[] }
  | { readonly obj: string }
  | { readonly arr: ValuePlan }
  | { readonly map: ValuePlan };

/**
 * One decision about one property, in order: `=` assigns a property to the same-named one, `=>` to a
 * renamed one, `>` stashes a source property in the bag, `<` recalls a destination property from the bag
 * (after every other step, as the operator's `AssignProperties` does), `v` sets `originalVersion`.
 * An object or collection is stashed through `value`, the source type's conversion onto itself, so that
 * the bag holds what the operator's typed Go value marshals to.
 * A property that skips a storage version is stashed converted, and recalled from, the shape the bag keeps
 * for it: `version` names the package whose conversions do that (the operator's storage compat types).
 * As Go's `omitempty` does, an empty list or map is not written: not assigned, recalled or stashed.
 * A Go value field (not a pointer) is assigned by `=0` when tagged `omitempty`: its zero value (`""`, `0`,
 * `false`) is not written; by `=!` otherwise: written as its zero value (`""`, `0`, `false`, `{}` for a
 * struct) when the source lacks it, as the operator's JSON encoder writes such fields.
 */
export type StepPlan =
  | readonly ['=', name: string, value: ValuePlan]
  | readonly ['=0', name: string, value: ValuePlan]
  | readonly ['=!', name: string, value: ValuePlan]
  | readonly ['=>', source: string, destination: string, value: ValuePlan]
  | readonly ['>', source: string]
  | readonly ['>', source: string, value: ValuePlan]
  | readonly ['>', source: string, value: ValuePlan, version: string]
  | readonly ['<', destination: string, value: ValuePlan]
  | readonly ['<', destination: string, value: ValuePlan, version: string]
  | readonly ['v', version: string];

/** The conversion of one object type in one direction. */
export interface TypeConversionPlan {
  /**
   * The package (version) whose conversions normalise a stashed object: the source's. Absent when it is
   * the plan's own package or nothing stashed is an object.
   */
  readonly src?: string;
  /**
   * The package (version) whose conversions convert a recalled object: the destination's. Absent when no
   * recalled value is an object, so that the same type's plan is written once for every version.
   */
  readonly dest?: string;
  /** JSON names the source type defines: any other key is unknown and goes to the bag. */
  readonly known: readonly string[];
  /** Whether the destination declares a `$propertyBag`; without one, leftovers are dropped. */
  readonly destBag: boolean;
  readonly steps: readonly StepPlan[];
  /** A hand-written hook run after the generated steps: its id in the group's hooks and the method. */
  readonly hook?: readonly [id: string, method: 'assignTo' | 'assignFrom'];
}

/** The conversion of a whole resource: the apiVersion it produces and the spec and status conversions. */
export interface ResourceConversionPlan {
  readonly apiVersion: string;
  readonly spec: string;
  readonly status: string;
}

/** One package's conversions, by function name. */
export interface PackagePlans {
  readonly types: Readonly<Record<string, TypeConversionPlan>>;
  readonly resources: Readonly<Record<string, ResourceConversionPlan>>;
}

/** A hand-written conversion hook, as the generated hook interfaces type it. */
export interface ConversionHook {
  assignTo(source: never, destination: never, bag: never): void;
  assignFrom(source: never, destination: never, bag: never): void;
}

/** Everything one group's conversions need: its packages' plans and the hand-written hooks they call. */
export interface GroupPlans {
  readonly packages: Readonly<Record<string, PackagePlans>>;
  readonly hooks: Readonly<Record<string, ConversionHook>>;
}
