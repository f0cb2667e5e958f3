import type { GeneratorConfig } from '../model/config.ts';
import { declaresBag, type ObjectDef, type PackageDef, type PropertyDef } from '../model/types.ts';
import { PairContext } from './context.ts';
import { applyRename } from './handlers/apply-rename.ts';
import { assignCollection } from './handlers/assign-collection.ts';
import { assignEnum } from './handlers/assign-enum.ts';
import { assignObject } from './handlers/assign-object.ts';
import { assignPrimitive } from './handlers/assign-primitive.ts';
import { matchByName } from './handlers/match-by-name.ts';
import { originalVersionDestination, originalVersionSource } from './handlers/original-version.ts';
import { recallFromBag } from './handlers/recall-from-bag.ts';
import { stashInBag } from './handlers/stash-in-bag.ts';
import type { Direction, Step, TypeChange, TypeConversion } from './plan-types.ts';
import { type PackagesBelow, skippedPropertyShape } from './skipped-property-shape.ts';
import { describeType, valueConversion } from './value.ts';

/** The assignment handlers, tried in order on each matched property pair; the first to claim it wins. */
const assignHandlers = [assignPrimitive, assignEnum, assignObject, assignCollection];

/** A planned type conversion plus the ARM API versions at either end of its link. */
export interface PlannedConversion extends TypeConversion {
  readonly group: string;
  readonly ownerVersion: string;
  readonly olderArmVersion: string;
  readonly newerArmVersion: string;
}

/**
 * Plans type conversions on demand, following object properties recursively, each type pair once per
 * link and direction. The result is data; the emitter turns it into code.
 */
export class ConversionPlanner {
  private readonly config: GeneratorConfig;
  private readonly below: PackagesBelow;
  private readonly planned = new Map<string, PlannedConversion | 'pending'>();

  /** `below` gives the storage packages that convert up into a package (none: no property skips a version). */
  constructor(config: GeneratorConfig, below: PackagesBelow = () => []) {
    this.config = config;
    this.below = below;
  }

  /** Every conversion planned so far. */
  all(): PlannedConversion[] {
    return [...this.planned.values()].filter((p): p is PlannedConversion => p !== 'pending');
  }

  /** The name of the function converting `sourceType` of `source` to `destType` of `destination`. */
  plan(
    source: PackageDef,
    destination: PackageDef,
    direction: Direction,
    sourceType: string,
    destType: string,
  ): string {
    const owner = direction === 'fromStorage' || direction === 'down' ? destination : source;
    const ownType = owner === source ? sourceType : destType;
    const other = owner === source ? destination : source;
    const functionName = functionNameOf(direction, ownType, other.version);
    const key = `${owner.group}/${owner.version}|${functionName}`;
    if (this.planned.has(key)) return functionName;
    this.planned.set(key, 'pending');
    const ctx = this.pairContext(source, destination, direction);
    this.planned.set(key, this.planPair(ctx, owner.version, functionName, sourceType, destType));
    return functionName;
  }

  /** The context converting between two packages, with the planner planning the nested conversions. */
  private pairContext(source: PackageDef, destination: PackageDef, direction: Direction): PairContext {
    return new PairContext(this.config, source, destination, direction, (s, d) =>
      this.plan(source, destination, direction, s, d),
    );
  }

  /**
   * The stash of a property the destination lacks. Down a storage link, a property that skips the
   * destination goes into its bag converted into the shape it has below (see `skippedPropertyShape`).
   */
  private stashStep(ctx: PairContext, destType: string, sp: PropertyDef, typeChange = false): Step {
    const step = this.normalisedStash(ctx, sp, typeChange);
    if (typeChange || ctx.direction !== 'down' || !ctx.source.storage || !ctx.destination.storage)
      return step;
    const shape = skippedPropertyShape(ctx.destination, destType, sp, ctx.source, sp.type, this.below);
    if (!shape) return step;
    const value = valueConversion(sp.type, shape.type, this.pairContext(ctx.source, shape.pkg, 'down'));
    if (!value)
      throw new Error(
        `${ctx.source.group}: no conversion of ${destType}.${sp.name} into its shape at ${shape.pkg.version}`,
      );
    return { ...step, value, valueVersion: shape.pkg.version };
  }

  /**
   * A stash of the value as the operator's typed Go value marshals it: an object or collection through the
   * source type's own `normalize` conversion, which leaves out the empty lists and maps Go's `omitempty`
   * drops (a primitive or enum is stashed as it is).
   */
  private normalisedStash(
    ctx: PairContext,
    sp: PropertyDef,
    typeChange: boolean,
  ): Extract<Step, { kind: 'stash' }> {
    const step = stashInBag(sp, typeChange);
    if (sp.type.kind !== 'object' && sp.type.kind !== 'array' && sp.type.kind !== 'map') return step;
    const value = valueConversion(sp.type, sp.type, this.selfContext(ctx.source));
    if (!value)
      throw new Error(
        `${ctx.source.group}/${ctx.source.version}: no conversion of ${sp.name} onto its own type`,
      );
    return { ...step, value };
  }

  /**
   * The recall of a property the source lacks. Up a storage link, a property that skipped the source comes
   * out of its bag in the shape it has below, converted from there; otherwise in its own shape.
   */
  private recallStep(ctx: PairContext, sourceType: string, dp: PropertyDef): Step {
    const shape =
      ctx.direction === 'up' && ctx.source.storage && ctx.destination.storage
        ? skippedPropertyShape(ctx.source, sourceType, dp, ctx.destination, dp.type, this.below)
        : undefined;
    if (!shape) return recallFromBag(dp, this.selfContext(ctx.destination));
    const value = valueConversion(shape.type, dp.type, this.pairContext(shape.pkg, ctx.destination, 'up'));
    if (!value)
      throw new Error(
        `${ctx.source.group}: no conversion of ${sourceType}.${dp.name} from its shape at ${shape.pkg.version}`,
      );
    return {
      kind: 'recall',
      handler: 'recallSkipped',
      destination: dp.name,
      value,
      valueVersion: shape.pkg.version,
    };
  }

  /** The context converting a package's types onto themselves, for values recalled from the bag. */
  private selfContext(pkg: PackageDef): PairContext {
    return this.pairContext(pkg, pkg, 'normalize');
  }

  private planPair(
    ctx: PairContext,
    ownerVersion: string,
    functionName: string,
    sourceType: string,
    destType: string,
  ): PlannedConversion {
    const src = objectDef(ctx.source, sourceType);
    const dst = objectDef(ctx.destination, destType);
    const steps: Step[] = [];
    const typeChanges: TypeChange[] = [];
    const claimed = new Set<string>();
    const conflicted = new Set<string>();
    const olderType = ctx.direction === 'down' ? destType : sourceType;
    const hookConfig =
      ctx.source.storage && ctx.destination.storage
        ? // A hook is the operator's step for one Go type: its `_STATUS` twin is another type, with steps of its own.
          this.config.hooks.find((h) => ctx.spans(h.group, h.apiVersion) && h.type === olderType)
        : undefined;
    for (const sp of src.properties) {
      const special = originalVersionSource(sp, ctx);
      if (special) {
        steps.push(special);
        continue;
      }
      const dp = matchByName(sp, dst.properties) ?? applyRename(sourceType, sp, dst.properties, ctx);
      if (dp && !claimed.has(dp.name)) {
        const step = firstClaim(sp, dp, ctx);
        if (step) {
          steps.push(step.kind === 'assign' && dp.goValue ? { ...step, goValue: dp.goValue } : step);
          claimed.add(dp.name);
          continue;
        }
        typeChanges.push({ property: sp.name, from: describeType(sp.type), to: describeType(dp.type) });
        conflicted.add(dp.name);
        // With a hook the value is the hook's to convert, and the operator's generated code neither copies
        // nor stashes it (MySQL's user-assigned identities, JSON at 2023-12-30 and typed at 2024-12-30).
        steps.push(
          hookConfig
            ? { kind: 'skip', handler: 'hook', source: sp.name, reason: `converted by ${hookConfig.export}` }
            : this.stashStep(ctx, destType, sp, true),
        );
        continue;
      }
      steps.push(this.stashStep(ctx, destType, sp));
    }
    for (const dp of dst.properties) {
      if (claimed.has(dp.name) || conflicted.has(dp.name)) continue;
      steps.push(originalVersionDestination(dp, ctx) ?? this.recallStep(ctx, sourceType, dp));
    }
    return {
      group: ctx.source.group,
      ownerVersion,
      olderArmVersion: ctx.older.armApiVersion,
      newerArmVersion: ctx.newer.armApiVersion,
      direction: ctx.direction,
      functionName,
      sourceVersion: ctx.source.version,
      destVersion: ctx.destination.version,
      sourceType,
      destType,
      steps,
      sourceKnown: src.properties.map((p) => p.name),
      sourceBag: declaresBag(ctx.source, src),
      destBag: declaresBag(ctx.destination, dst),
      typeChanges,
      hook: hookConfig
        ? {
            config: hookConfig,
            method: ctx.direction === 'down' ? 'assignFrom' : 'assignTo',
            interfaceName: `${olderType}_ConversionHooks`,
          }
        : undefined,
    };
  }
}

/** Function names, unique within the owning package's conversions file. */
export function functionNameOf(direction: Direction, ownType: string, otherVersion: string): string {
  switch (direction) {
    case 'toStorage':
      return `${ownType}_toStorage`;
    case 'fromStorage':
      return `${ownType}_fromStorage`;
    case 'up':
      return `${ownType}_to_${otherVersion}`;
    case 'down':
      return `${ownType}_from_${otherVersion}`;
    case 'normalize':
      return `${ownType}_normalize`;
  }
}

function firstClaim(...args: Parameters<typeof assignPrimitive>): Step | undefined {
  for (const handler of assignHandlers) {
    const step = handler(...args);
    if (step) return step;
  }
  return undefined;
}

function objectDef(pkg: PackageDef, name: string): ObjectDef {
  const def = pkg.types.get(name);
  if (def?.kind !== 'object')
    throw new Error(`${pkg.group}/${pkg.version}: object type ${name} is not defined`);
  return def;
}
