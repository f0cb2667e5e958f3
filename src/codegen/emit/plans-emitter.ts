import type {
  ResourceConversionPlan,
  StepPlan,
  TypeConversionPlan,
  ValuePlan,
} from '../../lib/conversion/plan-table.ts';
import type { ConversionPlan, Step, TypeConversion, ValueConversion } from '../conversions/plan-types.ts';
import { tsHeader } from './code.ts';

const primitiveLetter = { string: 's', integer: 'i', number: 'n', boolean: 'b', json: 'j' } as const;

/**
 * `generated/<group>/conversion-plans.ts`: every planned conversion of one group as data, one line per
 * function, for the runtime to compile on first use (src/lib/conversion/plan-compiler.ts). The plan is what
 * the handlers decided; only the decisions that change behaviour are kept (which handler made them and the
 * TypeScript type names are not).
 */
export function emitGroupPlans(plans: readonly ConversionPlan[], groupName: string): string {
  const out: string[] = [tsHeader()];
  out.push(`/** The conversions of ${groupName}, as data compiled on first use. */\n`);
  out.push(`import type { GroupPlans, TypeConversionPlan } from '../../src/lib/conversion/plan-table.ts';\n`);
  const hooks = hooksOf(plans);
  for (const [i, h] of hooks.entries()) {
    out.push(`import { ${h.export} as hook${i} } from '../../${h.module}';\n`);
    out.push(`import type { ${h.interfaceName} as Hook${i} } from './${h.version}/hooks.ts';\n`);
  }
  for (const i of hooks.keys()) {
    out.push(
      `\n/** Checked here against the generated interface. */\nconst checkedHook${i}: Hook${i} = hook${i};\n`,
    );
  }
  const sorted = [...plans].sort((a, b) => (a.version < b.version ? -1 : 1));
  const shared = sharedConstants(sorted);
  out.push(
    '\nlet table: GroupPlans | undefined;\n\n',
    '/** Package -> function name -> plan, built on the first call: a run converts a few groups of many. */\n',
    'export function plans(): GroupPlans {\n  table ??= tableOf();\n  return table;\n}\n',
    // The literals live in a function that V8 compiles only when called, so importing every group's
    // module (as the registry does) costs a module's load, not the building of its whole table.
    '\nfunction tableOf(): GroupPlans {\n',
  );
  const body: string[] = [];
  if (shared.declarations.length > 0) {
    body.push(
      '// Name lists and plans that recur (the same type in several versions and directions), written once.\n',
      ...shared.declarations,
    );
  }
  body.push('return {\n  packages: {\n');
  for (const plan of sorted) {
    body.push(`    ${JSON.stringify(plan.version)}: {\n      resources: {\n`);
    for (const r of [...plan.resources].sort((a, b) => (a.functionName < b.functionName ? -1 : 1))) {
      const entry: ResourceConversionPlan = {
        apiVersion: `${groupName}/${r.destVersion}`,
        spec: r.specFunction,
        status: r.statusFunction,
      };
      body.push(`        ${r.functionName}: ${JSON.stringify(entry)},\n`);
    }
    body.push('      },\n      types: {\n');
    for (const c of [...plan.types].sort((a, b) => (a.functionName < b.functionName ? -1 : 1))) {
      body.push(`        ${c.functionName}: ${shared.reference(typePlan(c, plan.version))},\n`);
    }
    body.push('      },\n    },\n');
  }
  body.push('  },\n  hooks: {\n');
  for (const [i, h] of hooks.entries()) body.push(`    ${JSON.stringify(h.id)}: checkedHook${i},\n`);
  body.push('  },\n};\n');
  // JSON.stringify escapes line breaks, so every line of the body starts at a `\n` pushed here.
  out.push(body.join('').replace(/^(?=.)/gm, '  '), '}\n');
  return out.join('');
}

/**
 * Plans and `known` name lists that occur more than once in the group become module constants (`p0`,
 * `k0`, numbered in order of first use), so that a type repeated across versions is written once; a plan
 * is shared only when equal in every field, so sharing changes nothing a conversion does.
 */
function sharedConstants(plans: readonly ConversionPlan[]): {
  declarations: string[];
  reference: (plan: TypeConversionPlan) => string;
} {
  const all = plans.flatMap((p) =>
    [...p.types]
      .sort((a, b) => (a.functionName < b.functionName ? -1 : 1))
      .map((c) => typePlan(c, p.version)),
  );
  const planCount = countOf(all.map((p) => JSON.stringify(p)));
  const knownCount = countOf(all.map((p) => JSON.stringify(p.known)));
  const declarations: string[] = [];
  const names = new Map<string, string>();
  let lists = 0;
  let shared = 0;
  const knownCode = (known: readonly string[]): string => {
    const text = JSON.stringify(known);
    if ((knownCount.get(text) ?? 0) < 2) return text;
    let name = names.get(`k${text}`);
    if (name === undefined) {
      name = `k${lists++}`;
      names.set(`k${text}`, name);
      declarations.push(`const ${name}: readonly string[] = ${text};\n`);
    }
    return name;
  };
  const planCode = (plan: TypeConversionPlan): string => {
    const { known, ...rest } = plan;
    const text = JSON.stringify(rest);
    return `{"known":${knownCode(known)},${text.slice(1)}`;
  };
  // Every constant is declared before the table that refers to it: lists first, in order of first use.
  for (const plan of all) knownCode(plan.known);
  for (const plan of all) {
    const text = JSON.stringify(plan);
    if ((planCount.get(text) ?? 0) < 2 || names.has(`p${text}`)) continue;
    const code = planCode(plan);
    const name = `p${shared++}`;
    names.set(`p${text}`, name);
    declarations.push(`const ${name}: TypeConversionPlan = ${code};\n`);
  }
  return {
    declarations,
    reference: (plan) => names.get(`p${JSON.stringify(plan)}`) ?? planCode(plan),
  };
}

function countOf(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

interface HookRef {
  readonly id: string;
  readonly version: string;
  readonly interfaceName: string;
  readonly module: string;
  readonly export: string;
}

function hookId(version: string, interfaceName: string): string {
  return `${version}/${interfaceName}`;
}

function hooksOf(plans: readonly ConversionPlan[]): HookRef[] {
  const seen = new Map<string, HookRef>();
  for (const plan of plans)
    for (const c of plan.types) {
      if (!c.hook) continue;
      const id = hookId(plan.version, c.hook.interfaceName);
      seen.set(id, {
        id,
        version: plan.version,
        interfaceName: c.hook.interfaceName,
        module: c.hook.config.module,
        export: c.hook.config.export,
      });
    }
  return [...seen.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

function typePlan(c: TypeConversion, here: string): TypeConversionPlan {
  const steps = c.steps.flatMap((s) => stepPlan(s));
  const recallsObject = c.steps.some(
    (s) => s.kind === 'recall' && s.valueVersion === undefined && convertsObject(s.value),
  );
  const stashesObject = c.steps.some(
    (s) => s.kind === 'stash' && s.value && s.valueVersion === undefined && convertsObject(s.value),
  );
  return {
    ...(stashesObject && c.sourceVersion !== here ? { src: c.sourceVersion } : {}),
    ...(recallsObject && c.destVersion !== here ? { dest: c.destVersion } : {}),
    known: c.sourceKnown,
    destBag: c.destBag,
    steps,
    ...(c.hook ? { hook: [hookId(here, c.hook.interfaceName), c.hook.method] as const } : {}),
  };
}

function convertsObject(value: ValueConversion): boolean {
  if (value.kind === 'object') return true;
  if (value.kind === 'array') return convertsObject(value.element);
  if (value.kind === 'map') return convertsObject(value.value);
  return false;
}

function stepPlan(step: Step): StepPlan[] {
  switch (step.kind) {
    case 'assign': {
      const v = valuePlan(step.value);
      if (step.goValue) {
        if (step.source !== step.destination)
          throw new Error(
            `${step.source} -> ${step.destination}: a renamed Go value field is not planned for`,
          );
        return [[step.goValue === 'omitZero' ? '=0' : '=!', step.source, v]];
      }
      return step.source === step.destination
        ? [['=', step.source, v]]
        : [['=>', step.source, step.destination, v]];
    }
    case 'stash':
      if (!step.value) return [['>', step.source]];
      return step.valueVersion
        ? [['>', step.source, valuePlan(step.value), step.valueVersion]]
        : [['>', step.source, valuePlan(step.value)]];
    case 'recall':
      return step.valueVersion
        ? [['<', step.destination, valuePlan(step.value), step.valueVersion]]
        : [['<', step.destination, valuePlan(step.value)]];
    case 'setOriginalVersion':
      return [['v', step.version]];
    case 'skip':
      return [];
  }
}

function valuePlan(value: ValueConversion): ValuePlan {
  switch (value.kind) {
    case 'primitive':
      return primitiveLetter[value.primitive];
    case 'enum':
      if (value.castTo && value.spellings && value.spellings.length > 0) {
        if (value.base !== 'string') throw new Error(`enum ${value.castTo}: spellings on a non-string enum`);
        return { spell: value.spellings };
      }
      return value.base === 'string' ? 's' : 'i';
    case 'object':
      return { obj: value.fn };
    case 'array':
      return { arr: valuePlan(value.element) };
    case 'map':
      return { map: valuePlan(value.value) };
  }
}
