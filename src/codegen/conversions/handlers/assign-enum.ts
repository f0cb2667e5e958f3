import type { PropertyDef, TypeRef } from '../../model/types.ts';
import type { PairContext } from '../context.ts';
import type { Step, ValueConversion } from '../plan-types.ts';
import { valueConversion } from '../value.ts';

/**
 * Seed 000: an enum matches by its underlying type (enums are generated per version, so never identical);
 * the value is cast, not checked against the destination's values, because enum values change over versions.
 * Into a string enum the operator gives a value matching case-insensitively its declared spelling
 * (`genruntime.ToEnum`), so the destination's values travel with the conversion.
 */
export function enumValue(
  source: TypeRef,
  destination: TypeRef,
  ctx: PairContext,
): ValueConversion | undefined {
  if (source.kind !== 'enum' && destination.kind !== 'enum') return undefined;
  const from = baseOf(source, (n) => ctx.sourceType(n));
  const to = baseOf(destination, (n) => ctx.destType(n));
  if (from === undefined || from !== to) return undefined;
  if (destination.kind !== 'enum') return { kind: 'enum', base: from, castTo: undefined };
  const def = ctx.destType(destination.name);
  const spellings =
    from === 'string' && def?.kind === 'enum' ? def.values.filter((v) => typeof v === 'string') : undefined;
  return { kind: 'enum', base: from, castTo: destination.name, spellings };
}

function baseOf(
  ref: TypeRef,
  lookup: (name: string) => { kind: string; base?: string } | undefined,
): 'string' | 'integer' | undefined {
  if (ref.kind === 'primitive')
    return ref.primitive === 'string' || ref.primitive === 'integer' ? ref.primitive : undefined;
  if (ref.kind !== 'enum') return undefined;
  const def = lookup(ref.name);
  return def?.kind === 'enum' && (def.base === 'string' || def.base === 'integer') ? def.base : undefined;
}

/** Claims a pair where either side is an enum with the same underlying type: a checked cast. */
export function assignEnum(
  source: PropertyDef,
  destination: PropertyDef,
  ctx: PairContext,
): Step | undefined {
  const value = valueConversion(source.type, destination.type, ctx);
  if (value?.kind !== 'enum') return undefined;
  return { kind: 'assign', handler: 'assignEnum', source: source.name, destination: destination.name, value };
}
