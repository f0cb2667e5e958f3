import { at, bool, checkObject, filled, int, json, mapArray, mapValues, num, str } from './checks.ts';
import { canonicalEnum, enumSpellings } from './enum-spelling.ts';
import type { ConversionHook, StepPlan, TypeConversionPlan, ValuePlan } from './plan-table.ts';
import {
  bagKey,
  copyBag,
  finishBag,
  leaveBehind,
  recall,
  stash,
  stashUnknown,
  withBag,
} from './property-bag.ts';

/** A compiled type conversion: converts the object at `path` (a JSON path, for errors) into a new one. */
export type TypeConverter = (source: unknown, path: string) => unknown;

/** Finds the compiled conversion `name` of package `version` (the same group), compiling it if needed. */
export type ConverterLookup = (version: string, name: string) => TypeConverter;

/** The runtime every compiled conversion calls, passed in once rather than reached through globals. */
const runtime = {
  at,
  bool,
  canonicalEnum,
  checkObject,
  copyBag,
  filled,
  finishBag,
  int,
  json,
  leaveBehind,
  mapArray,
  mapValues,
  num,
  recall,
  stash,
  stashUnknown,
  str,
  withBag,
} as const;

const runtimeNames = Object.keys(runtime).join(', ');

const checkOf = { s: 'str', i: 'int', n: 'num', b: 'bool', j: 'json' } as const;

/**
 * Turns one planned type conversion into a function. The function body walks the source's keys once
 * ({@link sourceReads}), then is straight-line code, one `if` per property, as the generator once emitted
 * it as TypeScript: V8 optimises it as it did that code, which a loop interpreting the plan per object
 * would not allow. Calls to other conversions are bound lazily, so only what a run reaches is ever
 * compiled. `name` (the conversion's name in its package) names the code in profiles.
 */
export function compileTypeConversion(
  plan: TypeConversionPlan,
  here: string,
  lookup: ConverterLookup,
  hooks: Readonly<Record<string, ConversionHook>>,
  name = 'conversion',
): TypeConverter {
  const constants: unknown[] = [];
  const callees = new Map<string, string>();
  const constant = (value: unknown): string => {
    constants.push(value);
    return `c[${constants.length - 1}]`;
  };
  const callee = (version: string, name: string): string => {
    const id = `${version}\u0000${name}`;
    let variable = callees.get(id);
    if (variable === undefined) {
      variable = `f${callees.size}`;
      callees.set(id, variable);
    }
    return variable;
  };
  const elements: string[] = [];
  const element = (code: string): string => {
    elements.push(`const e${elements.length} = ${code};`);
    return `e${elements.length - 1}`;
  };
  const value = (v: ValuePlan, expr: string, path: string, key: string, fnVersion: string): string => {
    if (typeof v === 'string') return `${checkOf[v]}(${expr}, ${path}, ${key})`;
    if ('spell' in v)
      return `canonicalEnum(str(${expr}, ${path}, ${key}), ${constant(enumSpellings(v.spell))})`;
    if ('obj' in v) return `${callee(fnVersion, v.obj)}(${expr}, at(${path}, ${key}))`;
    // Element conversions close over nothing per call, so each is made once, beside the function.
    if ('arr' in v)
      return `mapArray(${expr}, ${path}, ${key}, ${element(`(e, p, i) => ${value(v.arr, 'e', 'p', 'i', fnVersion)}`)})`;
    return `mapValues(${expr}, ${path}, ${key}, ${element(`(e, p, k) => ${value(v.map, 'e', 'p', 'k', fnVersion)}`)})`;
  };
  const known = constant(new Set([...plan.known, '$propertyBag']));
  const read = sourceReads(plan);
  const body: string[] = [
    'checkObject(src, path);',
    ...read.prologue,
    'const dst = {};',
    `let bag = copyBag(${read.local('$propertyBag')}, path);`,
  ];
  const recalls: string[] = [];
  for (const step of plan.steps) {
    const line = stepCode(step, here, plan.src ?? here, plan.dest ?? here, value, read.local);
    if (step[0] === '<') recalls.push(line);
    else body.push(line);
  }
  body.push(`if (odd) bag = stashUnknown(src, ${known}, bag);`);
  body.push(...recalls);
  if (plan.hook) {
    const [id, method] = plan.hook;
    const hook = hooks[id];
    if (hook === undefined)
      throw new Error(`conversion plan names hook ${id}, which its group does not register`);
    body.push(`bag = withBag(bag, (b) => ${constant(hook)}.${method}(src, dst, b));`);
  }
  body.push(
    plan.destBag
      ? 'const kept = finishBag(bag);\nif (kept !== undefined) dst.$propertyBag = kept;'
      : 'leaveBehind(dst, bag);',
  );
  body.push('return dst;');
  const bindings = [...callees].map(([id, variable]) => {
    const [version, name] = id.split('\u0000') as [string, string];
    return `let ${variable} = (s, p) => (${variable} = lookup(${JSON.stringify(version)}, ${JSON.stringify(name)}))(s, p);`;
  });
  const source = `"use strict";\nconst { ${runtimeNames} } = runtime;\n${bindings.join('\n')}\n${elements.join('\n')}\nreturn function convert(src, path) {\n${body.join('\n')}\n};\n//# sourceURL=${sourceUrlOf(here, name)}`;
  // The plan is generated data shipped with the plugin, never user input: names and keys reach the text
  // only through JSON.stringify or the identifier test in propertyAccess.
  const factory = new Function('runtime', 'lookup', 'c', source) as (
    r: typeof runtime,
    l: ConverterLookup,
    c: readonly unknown[],
  ) => TypeConverter;
  return factory(runtime, lookup, constants);
}

/**
 * The name a compiled conversion's code goes by in CPU profiles and stack traces (`plan:<version>/<name>`),
 * so that time spent in one is told apart from time in another; kept to characters a URL may hold.
 */
function sourceUrlOf(version: string, name: string): string {
  return `plan:${version}/${name}`.replace(/[^A-Za-z0-9_./:-]/g, '_');
}

type ValueCode = (v: ValuePlan, expr: string, path: string, key: string, fnVersion: string) => string;

/**
 * How a compiled conversion reads its source: the statements that run first, and the local each source
 * property is read into.
 */
interface SourceReads {
  readonly prologue: readonly string[];
  /** The local holding the source property `name` (its JSON name); undefined when the source lacks it. */
  local(name: string): string;
}

/**
 * Reads the source of `plan` by walking its own keys once into locals, each key matched against the type's
 * properties, instead of asking the source for each property by name. Objects of one type come in many
 * shapes (each a different set of the optional properties), and once V8 has seen many shapes at a read by
 * name, a read of a property the object lacks is a slow lookup: a conversion paid for every property the
 * object does not set (a random AKS cluster converted at 0.78x a structuredClone of it; the same cluster
 * converted 200 times, 3x). The walk also notes a key the type does not define (`odd`), so the search for
 * unknown keys to put in the bag runs only when there is one.
 */
function sourceReads(plan: TypeConversionPlan): SourceReads {
  const slots = new Map<string, number>();
  for (const step of plan.steps) {
    if (step[0] !== '<' && step[0] !== 'v' && !slots.has(step[1])) slots.set(step[1], slots.size);
  }
  slots.set('$propertyBag', slots.size);
  // Names by length, so that a key is compared only with the names as long as it: a switch over strings
  // compares them one after another, and the largest types define over 60 properties.
  const byLength = new Map<number, string[]>();
  const add = (name: string, code: string) => {
    const cases = byLength.get(name.length) ?? [];
    cases.push(`case ${JSON.stringify(name)}: ${code}`);
    byLength.set(name.length, cases);
  };
  for (const [name, i] of slots) add(name, `s${i} = src[k]; continue;`);
  // A key the type defines that no step reads is known all the same: not stashed.
  for (const name of plan.known) if (!slots.has(name)) add(name, 'continue;');
  const lengths = [...byLength].map(
    ([length, cases]) => `case ${length}:\nswitch (k) {\n${cases.join('\n')}\n}\nbreak;`,
  );
  const locals = [...slots.values()].map((i) => `s${i}`);
  return {
    prologue: [
      `let ${locals.join(', ')}, odd = false;`,
      `for (const k in src) {\nswitch (k.length) {\n${lengths.join('\n')}\n}\nodd = true;\n}`,
    ],
    local: (name) => {
      const slot = slots.get(name);
      if (slot === undefined) throw new Error(`${name}: read by no step of this conversion`);
      return `s${slot}`;
    },
  };
}

/**
 * One step as code. `here` is the package owning the plan, whose conversions an assignment calls; `source`
 * the one whose conversions normalise a stashed value (the source's); `dest` the one whose conversions
 * check a recalled value (the destination's).
 */
function stepCode(
  step: StepPlan,
  here: string,
  source: string,
  dest: string,
  value: ValueCode,
  local: (name: string) => string,
): string {
  switch (step[0]) {
    case '=':
    case '=>': {
      const [from, to, v] = step[0] === '=' ? [step[1], step[1], step[2]] : [step[1], step[2], step[3]];
      const read = local(from);
      const write = propertyAccess('dst', to);
      const converted = value(v, read, 'path', JSON.stringify(`.${from}`), here);
      if (!isCollection(v)) return `if (${read} !== undefined) ${write} = ${converted};`;
      return `if (${read} !== undefined) {\nconst v = ${converted};\nif (filled(v)) ${write} = v;\n}`;
    }
    case '=0':
    case '=!': {
      const [, name, v] = step;
      const read = local(name);
      const write = propertyAccess('dst', name);
      const converted = value(v, read, 'path', JSON.stringify(`.${name}`), here);
      // The zero is a literal in the code, so each object written gets a fresh `{}`.
      const zero = goZero(v);
      if (step[0] === '=!') return `${write} = ${read} !== undefined ? ${converted} : ${zero};`;
      // Go's omitempty never leaves out a struct: only a primitive's zero compares equal here.
      if (zero === '{}') throw new Error(`${name}: a struct field is written even when empty (=!, not =0)`);
      return `if (${read} !== undefined) {\nconst v = ${converted};\nif (v !== ${zero}) ${write} = v;\n}`;
    }
    case '>': {
      const read = local(step[1]);
      const key = JSON.stringify(bagKey(step[1]));
      if (step.length === 2) return `if (${read} !== undefined) bag = stash(bag, ${key}, ${read});`;
      const fnVersion = step.length === 4 ? step[3] : source;
      const converted = value(step[2], read, 'path', JSON.stringify(`.${step[1]}`), fnVersion);
      const stashed = isCollection(step[2]) ? 'if (filled(v)) ' : '';
      return `if (${read} !== undefined) {\nconst v = ${converted};\n${stashed}bag = stash(bag, ${key}, v);\n}`;
    }
    case '<': {
      const [, destination, v] = step;
      const fnVersion = step.length === 4 ? step[3] : dest;
      // The operator stores a string unquoted: such a value is recalled from the raw text.
      const raw = v === 's' || (typeof v === 'object' && 'spell' in v) ? ', true' : '';
      const kept = isCollection(v) ? 'v !== undefined && filled(v)' : 'v !== undefined';
      return (
        `if (bag !== undefined) {\nconst v = recall(bag, ${JSON.stringify(bagKey(destination))}, path, ${JSON.stringify(`.${destination}`)}, (v, p, k) => ${value(v, 'v', 'p', 'k', fnVersion)}${raw});\n` +
        `if (${kept}) ${propertyAccess('dst', destination)} = v;\n}`
      );
    }
    case 'v':
      return `dst.originalVersion = ${JSON.stringify(step[1])};`;
  }
}

/** The zero value of a Go value field, as code: what its JSON encoder writes when nothing set the field. */
function goZero(v: ValuePlan): string {
  if (v === 's' || (typeof v === 'object' && 'spell' in v)) return '""';
  if (v === 'i' || v === 'n') return '0';
  if (v === 'b') return 'false';
  if (typeof v === 'object' && 'obj' in v) return '{}';
  throw new Error(`a Go value field holds a primitive or a struct, not ${JSON.stringify(v)}`);
}

/** A list or map: what Go's `omitempty` leaves out when empty, on every field of the operator's types. */
function isCollection(v: ValuePlan): boolean {
  return typeof v === 'object' && ('arr' in v || 'map' in v);
}

/** `object.name` for a plain identifier, else `object["odd-name"]`: valid for any JSON name. */
function propertyAccess(object: string, name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`;
}
