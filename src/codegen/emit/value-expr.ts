import type { ValueConversion } from '../conversions/plan-types.ts';

const checkFunction = { string: 'str', integer: 'int', number: 'num', boolean: 'bool' } as const;

/**
 * Names the module-level table of an enum's declared spellings, registering it for the emitter to write:
 * one table per enum and module, so a conversion call allocates nothing to canonicalise a value.
 */
export type SpellingsTable = (ns: string, enumName: string, values: readonly string[]) => string;

/**
 * The expression converting `expr` (known not to be undefined) per `value`. `path` and `key` are the
 * expressions naming where the value sits, passed to every check so errors carry the JSON path.
 * `fnModule` qualifies object conversion functions defined in another package's module.
 */
export function valueExpr(
  value: ValueConversion,
  expr: string,
  path: string,
  key: string,
  sourceNs: string,
  destNs: string,
  fnModule = '',
  spellings?: SpellingsTable,
): string {
  switch (value.kind) {
    case 'primitive':
      return `${checkFunction[value.primitive]}(${expr}, ${path}, ${key})`;
    case 'enum': {
      let checked = `${checkFunction[value.base]}(${expr}, ${path}, ${key})`;
      if (value.castTo && value.spellings && value.spellings.length > 0 && spellings)
        checked = `canonicalEnum(${checked}, ${spellings(destNs, value.castTo, value.spellings)})`;
      return value.castTo ? `(${checked} as ${destNs}.${value.castTo})` : checked;
    }
    case 'object':
      return `${fnModule}${value.fn}(${expr} as ${sourceNs}.${value.sourceType}, at(${path}, ${key}))`;
    case 'array':
      return `mapArray(${expr}, ${path}, ${key}, (e, p, i) => ${valueExpr(value.element, 'e', 'p', 'i', sourceNs, destNs, fnModule, spellings)})`;
    case 'map':
      return `mapValues(${expr}, ${path}, ${key}, (e, p, k) => ${valueExpr(value.value, 'e', 'p', 'k', sourceNs, destNs, fnModule, spellings)})`;
  }
}
