import type { GeneratorConfig } from '../model/config.ts';
import { declaresBag, type ObjectDef, type PackageDef } from '../model/types.ts';
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
import { describeType } from './value.ts';

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
  private readonly planned = new Map<string, PlannedConversion | 'pending'>();

  constructor(config: GeneratorConfig) {
    this.config = config;
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
    const ctx = new PairContext(this.config, source, destination, direction, (s, d) =>
      this.plan(source, destination, direction, s, d),
    );
    this.planned.set(key, this.planPair(ctx, owner.version, functionName, sourceType, destType));
    return functionName;
  }

  /** The context converting a package's types onto themselves, for values recalled from the bag. */
  private selfContext(pkg: PackageDef): PairContext {
    return new PairContext(this.config, pkg, pkg, 'normalize', (s, d) =>
      this.plan(pkg, pkg, 'normalize', s, d),
    );
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
          steps.push(step);
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
            : stashInBag(sp, true),
        );
        continue;
      }
      steps.push(stashInBag(sp, false));
    }
    for (const dp of dst.properties) {
      if (claimed.has(dp.name) || conflicted.has(dp.name)) continue;
      steps.push(originalVersionDestination(dp, ctx) ?? recallFromBag(dp, this.selfContext(ctx.destination)));
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
