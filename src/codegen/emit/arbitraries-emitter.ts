import { bagKey } from '../../lib/conversion/property-bag.ts';
import {
  oneOfOptions,
  type PackageDef,
  type PropertyDef,
  type TypeDef,
  type TypeRef,
} from '../model/types.ts';
import { key, tsHeader } from './code.ts';

/**
 * `arbitraries.ts` of a package (API version or storage variant): a fast-check arbitrary per type and per
 * resource, every object (the resource root included; the operator's runtime types excepted) with unknown
 * extra properties mixed in, for the generated round-trip, reliability and ARM tests. Extra keys are drawn from `extraNames` (every property
 * name of every version of the group), their case variants, `__proto__` and `zz...` keys, never from the
 * object's own property names. A oneOf root gets exactly one of its options (seed 004).
 */
export function emitArbitraries(
  pkg: PackageDef,
  groupName: string,
  extraNames: readonly string[],
  reserved: ReadonlyMap<string, readonly string[]> = new Map(),
): string {
  const out: string[] = [tsHeader()];
  out.push(`/** Random ${pkg.group} ${pkg.version} objects for property tests. */\n`);
  out.push(
    `import fc from 'fast-check';\nimport { withExtras } from '../../../src/testing/conversion-support.ts';\n`,
  );
  out.push(
    `\n/** Property names of every version of the group: extra keys are drawn from these too. */\nconst names: readonly string[] = ${JSON.stringify(extraNames)};\n`,
  );
  for (const def of [...pkg.types.values()].sort((a, b) => (a.name < b.name ? -1 : 1)))
    out.push(emitType(def, reserved.get(def.name) ?? []));
  for (const r of pkg.resources) {
    out.push(`\n/** A random ${r.kind} at ${pkg.version}, with extra keys at the root too. */\n`);
    out.push(`export function ${r.kind}(): fc.Arbitrary<Record<string, unknown>> {\n`);
    out.push(
      `  return withExtras(fc.record({ spec: arb_${r.specType}(), status: arb_${r.statusType}() }, { requiredKeys: ['spec'] }), names, ['apiVersion', 'kind', 'metadata', 'spec', 'status']).map((o) => ({\n`,
    );
    out.push(
      `    ...o,\n    apiVersion: '${groupName}/${pkg.version}',\n    kind: '${r.kind}',\n    metadata: { name: 'sample', namespace: 'default' },\n  }));\n}\n`,
    );
  }
  return out.join('');
}

/** One type's arbitrary; `reserved` names (read by a hook) are never drawn as its extras. */
function emitType(def: TypeDef, reserved: readonly string[]): string {
  if (def.kind === 'enum') {
    return `\nfunction arb_${def.name}(): fc.Arbitrary<unknown> {\n  return fc.constantFrom(${def.values.map((v) => JSON.stringify(v)).join(', ')});\n}\n`;
  }
  // A property's bag key (the operator's Go name) is no extra either: an extra under it is the operator's
  // entry for that property, and is read as one (see stashUnknown).
  const own = JSON.stringify([
    ...def.properties.flatMap((p) => [p.name, bagKey(p.name)]),
    '$propertyBag',
    ...reserved.flatMap((n) => [n, bagKey(n)]),
  ]);
  const fieldsOf = (props: readonly PropertyDef[]) =>
    props.map((p) => `${key(p.name)}: ${arb(p.type)}`).join(', ');
  const options = def.oneOf ? oneOfOptions(def) : [];
  let record: string;
  if (options.length > 0) {
    const common = def.properties.filter((p) => !options.includes(p));
    const required = common.filter((p) => p.required).map((p) => JSON.stringify(p.name));
    const variants = options.map(
      (o) =>
        `fc.record({ ${fieldsOf([...common, o])} }, { requiredKeys: [${[...required, JSON.stringify(o.name)].join(', ')}] })`,
    );
    record = `fc.oneof(${variants.join(', ')})`;
  } else record = `fc.record({ ${fieldsOf(def.properties)} }, { requiredKeys: [] })`;
  // A runtime type is one Go type in the operator, which keeps no unknown keys: it gets none.
  if (def.runtime) return `\nfunction arb_${def.name}(): fc.Arbitrary<unknown> {\n  return ${record};\n}\n`;
  return `\nfunction arb_${def.name}(): fc.Arbitrary<unknown> {\n  return withExtras(${record}, names, ${own});\n}\n`;
}

function arb(ref: TypeRef): string {
  switch (ref.kind) {
    case 'primitive':
      switch (ref.primitive) {
        case 'string':
          return 'fc.string({ maxLength: 8 })';
        case 'integer':
          return 'fc.maxSafeInteger()';
        case 'number':
          return 'fc.double({ noNaN: true, noDefaultInfinity: true })';
        case 'boolean':
          return 'fc.boolean()';
      }
      break;
    case 'enum':
    case 'object':
      return `arb_${ref.name}()`;
    case 'array':
      return `fc.array(${arb(ref.element)}, { maxLength: 2 })`;
    case 'map':
      return `fc.dictionary(fc.oneof(fc.string({ minLength: 1, maxLength: 4 }), fc.constant('__proto__')), ${arb(ref.value)}, { maxKeys: 2 })`;
  }
}
