import { bagKey } from '../../lib/conversion/property-bag.ts';
import type {
  ConversionPlan,
  ResourceConversion,
  Step,
  TypeConversion,
  ValueConversion,
} from '../conversions/plan-types.ts';
import { access, fromPackage, tsHeader } from './code.ts';
import { type SpellingsTable, valueExpr } from './value-expr.ts';

const directionText = {
  toStorage: 'into its storage variant',
  fromStorage: 'out of its storage variant',
  up: 'one step up the storage chain, towards the hub',
  down: 'one step down the storage chain, away from the hub',
  normalize: 'onto itself: every value checked, for values recalled from the property bag',
} as const;

/**
 * `conversions.ts` of one package: one function per planned type conversion, each a straight run of the
 * handlers' steps (assign, stash, recall), then unknown keys to the bag, then the hook if one exists.
 */
export function emitConversions(plan: ConversionPlan, groupName: string): string {
  const others = new Set<string>();
  for (const c of plan.types) {
    others.add(c.sourceVersion);
    others.add(c.destVersion);
  }
  others.delete(plan.version);
  const out: string[] = [tsHeader()];
  out.push(
    `/**\n * Conversions of ${plan.group} ${plan.version} (seed 000): ${plan.storage ? 'storage <-> next storage variant' : 'API version <-> its storage variant'}.\n */\n`,
  );
  out.push(
    `import { at, bool, checkObject, int, mapArray, mapValues, num, str } from '${fromPackage('src/lib/conversion/checks.ts')}';\n`,
  );
  out.push(
    `import { bagOf, copyBag, finishBag, leaveBehind, type PropertyBagData, recall, stash, stashUnknown, withBag } from '${fromPackage('src/lib/conversion/property-bag.ts')}';\n`,
  );
  out.push(
    `import { convertResource, type KubeObject } from '${fromPackage('src/lib/conversion/resource.ts')}';\n`,
  );
  for (const hook of hooksOf(plan)) {
    out.push(`import { ${hook.config.export} } from '${fromPackage(hook.config.module)}';\n`);
    out.push(`import type { ${hook.interfaceName} } from './hooks.ts';\n`);
  }
  out.push(`import type * as ${plan.version} from './types.ts';\n`);
  for (const other of [...others].sort())
    out.push(`import type * as ${other} from '../${other}/types.ts';\n`);
  // A value recalled at the far end of an `up` link goes through that package's `normalize` conversions.
  const importsAt = out.length;
  out.push('');
  for (const hook of hooksOf(plan)) {
    out.push(
      `\n/** The hand-written ${hook.config.type} hooks, checked here against the generated interface. */\n`,
    );
    out.push(`const ${hookConst(hook.interfaceName)}: ${hook.interfaceName} = ${hook.config.export};\n`);
  }
  const knownSets = new Map<string, string[]>();
  const tables = new Map<string, readonly string[]>();
  const spellings: SpellingsTable = (ns, enumName, values) => {
    const name = `spellings_${ns}_${enumName}`;
    tables.set(name, values);
    return name;
  };
  for (const r of plan.resources) out.push(emitResource(r, groupName));
  const recallsFrom = new Set<string>();
  for (const c of plan.types) out.push(emitType(c, knownSets, plan.version, recallsFrom, spellings));
  out[importsAt] =
    (tables.size > 0
      ? `import { canonicalEnum, enumSpellings } from '${fromPackage('src/lib/conversion/enum-spelling.ts')}';\n`
      : '') +
    [...recallsFrom]
      .sort()
      .map((other) => `import * as ${other}_conversions from '../${other}/conversions.ts';\n`)
      .join('');
  out.push('\n');
  for (const [name, keys] of [...knownSets.entries()].sort()) {
    out.push(`const ${name} = new Set(${JSON.stringify(keys)});\n`);
  }
  for (const [name, values] of [...tables.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.push(`const ${name} = enumSpellings(${JSON.stringify(values)});\n`);
  }
  return out.join('');
}

function hooksOf(plan: ConversionPlan): NonNullable<TypeConversion['hook']>[] {
  const seen = new Map<string, NonNullable<TypeConversion['hook']>>();
  for (const c of plan.types) if (c.hook) seen.set(c.hook.interfaceName, c.hook);
  return [...seen.values()].sort((a, b) => (a.interfaceName < b.interfaceName ? -1 : 1));
}

function hookConst(interfaceName: string): string {
  return interfaceName.replace(/_ConversionHooks$/, '_hooks');
}

function emitResource(r: ResourceConversion, groupName: string): string {
  return (
    `\n/** Converts a whole ${r.kind} from ${r.sourceVersion} to ${r.destVersion} (${directionText[r.direction]}). */\n` +
    `export function ${r.functionName}(src: KubeObject): KubeObject {\n` +
    `  return convertResource(src, '${groupName}/${r.destVersion}', ${r.specFunction}, ${r.statusFunction});\n}\n`
  );
}

function emitType(
  c: TypeConversion,
  knownSets: Map<string, string[]>,
  here: string,
  recallsFrom: Set<string>,
  spellings: SpellingsTable,
): string {
  const S = c.sourceVersion;
  const D = c.destVersion;
  const lines: string[] = [];
  lines.push(
    `\n/** Converts ${c.sourceType} of ${S} to ${c.destType} of ${D} (${directionText[c.direction]}). */\n`,
  );
  lines.push(
    `export function ${c.functionName}(src: ${S}.${c.sourceType}, path: string): ${D}.${c.destType} {\n`,
  );
  lines.push('  checkObject(src, path);\n');
  lines.push(`  const dst = {} as ${D}.${c.destType};\n`);
  // A source without a declared bag may still hold one (an object kubectl-aso wrote before API versions
  // lost theirs, or a manifest converted keeping leftovers): it is read, so that nothing in it is lost.
  lines.push(
    c.sourceBag
      ? '  let bag: PropertyBagData | undefined = copyBag(src.$propertyBag, path);\n'
      : '  let bag: PropertyBagData | undefined = copyBag(bagOf(src), path);\n',
  );
  const recalls: string[] = [];
  for (const step of c.steps) {
    const module = D === here ? '' : `${D}_conversions.`;
    const code = emitStep(step, S, D, module, spellings);
    if (module && code.includes(module)) recallsFrom.add(D);
    if (step.kind === 'recall') recalls.push(code);
    else lines.push(code);
  }
  const sourceKnown = [...c.sourceKnown, '$propertyBag'];
  const knownName = `known_${S}_${c.sourceType}`;
  knownSets.set(knownName, sourceKnown);
  lines.push(`  bag = stashUnknown(src, ${knownName}, bag);\n`);
  lines.push(...recalls);
  if (c.hook)
    lines.push(
      `  bag = withBag(bag, (b) => ${hookConst(c.hook.interfaceName)}.${c.hook.method}(src, dst, b));\n`,
    );
  // Without a declared bag, what the destination cannot hold is dropped, as the operator drops it, unless
  // the caller asked to see it (leaveBehind in property-bag.ts).
  lines.push(
    c.destBag
      ? '  const kept = finishBag(bag);\n  if (kept !== undefined) dst.$propertyBag = kept;\n'
      : '  leaveBehind(dst, bag);\n',
  );
  lines.push('  return dst;\n}\n');
  return lines.join('');
}

function emitStep(step: Step, S: string, D: string, recallModule: string, spellings: SpellingsTable): string {
  switch (step.kind) {
    case 'assign': {
      const from = access('src', step.source);
      const expr = valueExpr(
        step.value,
        from,
        'path',
        JSON.stringify(`.${step.source}`),
        S,
        D,
        '',
        spellings,
      );
      return `  if (${from} !== undefined) ${access('dst', step.destination)} = ${expr}; // ${step.handler}\n`;
    }
    case 'stash': {
      const from = access('src', step.source);
      const why = step.typeChange ? 'type changed' : 'no counterpart';
      return `  if (${from} !== undefined) bag = stash(bag, ${JSON.stringify(bagKey(step.source))}, ${from}); // stashInBag: ${why}\n`;
    }
    case 'recall': {
      const name = JSON.stringify(bagKey(step.destination));
      const key = JSON.stringify(`.${step.destination}`);
      const expr = valueExpr(step.value, 'v', 'p', 'k', D, D, recallModule, spellings);
      // The operator stores a string unquoted: such a value is recalled from the raw text.
      const raw = isStringValue(step.value) ? ', true' : '';
      return (
        `  if (bag !== undefined) {\n    const v = recall(bag, ${name}, path, ${key}, (v, p, k) => ${expr}${raw}); // recallFromBag\n` +
        `    if (v !== undefined) ${access('dst', step.destination)} = v;\n  }\n`
      );
    }
    case 'setOriginalVersion':
      return `  dst.originalVersion = '${step.version}'; // originalVersion\n`;
    case 'skip':
      return `  // ${step.source}: ${step.reason} (${step.handler})\n`;
  }
}

/** True when a value converts to a string (a string primitive or a string enum): the bag holds it raw. */
function isStringValue(value: ValueConversion): boolean {
  return (
    (value.kind === 'primitive' && value.primitive === 'string') ||
    (value.kind === 'enum' && value.base === 'string')
  );
}
