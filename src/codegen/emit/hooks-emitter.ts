import type { ConversionPlan, TypeConversion } from '../conversions/plan-types.ts';
import { fromPackage, tsHeader } from './code.ts';

/**
 * `hooks.ts` of a storage package whose conversions have hand-written steps: one interface per hooked type,
 * the seed's AssignableTo/AssignableFrom pair. The hand-written module must satisfy it or typecheck fails.
 */
export function emitHooks(plan: ConversionPlan): string | undefined {
  const hooked = new Map<string, { up?: TypeConversion; down?: TypeConversion }>();
  for (const c of plan.types) {
    if (!c.hook) continue;
    const entry = hooked.get(c.hook.interfaceName) ?? {};
    if (c.direction === 'up') entry.up = c;
    else entry.down = c;
    hooked.set(c.hook.interfaceName, entry);
  }
  if (hooked.size === 0) return undefined;
  const out: string[] = [tsHeader()];
  out.push(
    `/**\n * Extension points of ${plan.group} ${plan.version} (seed 000): implemented by hand outside generated/.\n */\n`,
  );
  out.push(`import type { PropertyBag } from '${fromPackage('src/lib/conversion/property-bag.ts')}';\n`);
  const others = new Set<string>();
  for (const { up, down } of hooked.values()) {
    if (up) others.add(up.destVersion);
    if (down) others.add(down.sourceVersion);
  }
  out.push(`import type * as ${plan.version} from './types.ts';\n`);
  for (const other of [...others].sort())
    out.push(`import type * as ${other} from '../${other}/types.ts';\n`);
  for (const [name, { up, down }] of [...hooked.entries()].sort()) {
    if (!up || !down) throw new Error(`hook ${name} must apply in both directions`);
    out.push(
      `\n/** Hand-written steps for ${up.sourceType} between ${plan.version} and ${up.destVersion}: ${up.hook?.config.reason}. */\n`,
    );
    out.push(`export interface ${name} {\n`);
    out.push(
      `  /** AssignTo: runs after the generated assignments on the way up; may move values out of the bag. */\n`,
    );
    out.push(
      `  assignTo(source: Readonly<${plan.version}.${up.sourceType}>, destination: ${up.destVersion}.${up.destType}, bag: PropertyBag): void;\n`,
    );
    out.push(`  /** AssignFrom: runs after the generated assignments on the way down. */\n`);
    out.push(
      `  assignFrom(source: Readonly<${down.sourceVersion}.${down.sourceType}>, destination: ${plan.version}.${down.destType}, bag: PropertyBag): void;\n}\n`,
    );
  }
  return out.join('');
}
