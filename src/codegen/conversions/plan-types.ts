import type { HookConfig } from '../model/config.ts';
import type { GoValueField, Primitive } from '../model/types.ts';

/**
 * Which conversion a function performs (seed 000): spoke <-> own storage, storage <-> next storage, or
 * `normalize`: a type onto itself, checking a value recalled from the property bag property by property.
 */
export type Direction = 'toStorage' | 'fromStorage' | 'up' | 'down' | 'normalize';

/** How one value is carried across: checked and copied, cast, converted recursively, or element-wise. */
export type ValueConversion =
  | { readonly kind: 'primitive'; readonly primitive: Primitive }
  | {
      readonly kind: 'enum';
      readonly base: 'string' | 'integer';
      readonly castTo: string | undefined;
      /** The destination string enum's declared values, given their spelling on the way in (as ToEnum does). */
      readonly spellings?: readonly string[] | undefined;
    }
  | { readonly kind: 'object'; readonly fn: string; readonly sourceType: string; readonly destType: string }
  | { readonly kind: 'array'; readonly element: ValueConversion }
  | { readonly kind: 'map'; readonly value: ValueConversion };

/** One decision about one property, recorded with the handler that made it. */
export type Step =
  | {
      readonly kind: 'assign';
      readonly handler: string;
      readonly source: string;
      readonly destination: string;
      readonly value: ValueConversion;
      /** How the operator's Go field writes its zero value, when it is a value, not a pointer. */
      readonly goValue?: GoValueField | undefined;
    }
  | {
      readonly kind: 'stash';
      readonly handler: string;
      readonly source: string;
      readonly typeChange: boolean;
      /**
       * Converts an object or collection into the value the bag keeps: the source type's own `normalize`
       * conversion (what the operator's typed Go value marshals to, empty lists and maps left out), or, for
       * a property that skips a version, a conversion into the shape the version below has for it.
       */
      readonly value?: ValueConversion | undefined;
      /** The package whose conversions `value` calls, when not the source's: see `skippedPropertyShape`. */
      readonly valueVersion?: string | undefined;
    }
  | {
      readonly kind: 'recall';
      readonly handler: string;
      readonly destination: string;
      /**
       * Converts the recalled value onto the destination property's type: a `normalize` conversion, or, for a
       * property that skips a version, a conversion from the shape the bag keeps for it.
       */
      readonly value: ValueConversion;
      /** The package whose conversions `value` calls, when not the destination's. */
      readonly valueVersion?: string | undefined;
    }
  | { readonly kind: 'setOriginalVersion'; readonly handler: string; readonly version: string }
  | { readonly kind: 'skip'; readonly handler: string; readonly source: string; readonly reason: string };

/** A property whose type changed in a way no rule converts: needs a hook, else its value stays in the bag. */
export interface TypeChange {
  readonly property: string;
  readonly from: string;
  readonly to: string;
}

/** The conversion of one object type in one direction: the unit the emitter turns into a function. */
export interface TypeConversion {
  readonly direction: Direction;
  readonly functionName: string;
  readonly sourceVersion: string;
  readonly destVersion: string;
  readonly sourceType: string;
  readonly destType: string;
  readonly steps: readonly Step[];
  /** JSON names the source type defines: any other key is unknown and goes to the bag. */
  readonly sourceKnown: readonly string[];
  /** Whether the source and the destination type declare a `$propertyBag` (model `declaresBag`). */
  readonly sourceBag: boolean;
  readonly destBag: boolean;
  readonly typeChanges: readonly TypeChange[];
  readonly hook:
    | {
        readonly config: HookConfig;
        readonly method: 'assignTo' | 'assignFrom';
        readonly interfaceName: string;
      }
    | undefined;
}

/** The conversion of a whole resource (apiVersion, kind, metadata, spec, status) in one direction. */
export interface ResourceConversion {
  readonly direction: Direction;
  readonly kind: string;
  readonly functionName: string;
  readonly sourceVersion: string;
  readonly destVersion: string;
  readonly specFunction: string;
  readonly statusFunction: string;
}

/** Everything planned for one package: written into its group's `conversion-plans.ts`. */
export interface ConversionPlan {
  readonly group: string;
  readonly version: string;
  readonly storage: boolean;
  readonly types: readonly TypeConversion[];
  readonly resources: readonly ResourceConversion[];
}
