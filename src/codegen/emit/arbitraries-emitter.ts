import type { PackageDef, TypeDef, TypeRef } from '../model/types.ts';
import { key, tsHeader } from './code.ts';

/**
 * `arbitraries.ts` of an API package: a fast-check arbitrary per type and per resource, every object with
 * unknown extra properties mixed in, for the generated round-trip and reliability tests.
 */
export function emitArbitraries(pkg: PackageDef, groupName: string): string {
  const out: string[] = [tsHeader()];
  out.push(`/** Random ${pkg.group} ${pkg.version} objects for property tests. */\n`);
  out.push(
    `import fc from 'fast-check';\nimport { withExtras } from '../../../test/lib/conversion/support.ts';\n`,
  );
  for (const def of [...pkg.types.values()].sort((a, b) => (a.name < b.name ? -1 : 1)))
    out.push(emitType(def));
  for (const r of pkg.resources) {
    out.push(`\n/** A random ${r.kind} at ${pkg.version}. */\n`);
    out.push(`export function ${r.kind}(): fc.Arbitrary<Record<string, unknown>> {\n`);
    out.push(
      `  return fc.record({ spec: arb_${r.specType}(), status: arb_${r.statusType}() }, { requiredKeys: ['spec'] }).map((o) => ({\n`,
    );
    out.push(
      `    apiVersion: '${groupName}/${pkg.version}',\n    kind: '${r.kind}',\n    metadata: { name: 'sample', namespace: 'default' },\n    ...o,\n  }));\n}\n`,
    );
  }
  return out.join('');
}

function emitType(def: TypeDef): string {
  if (def.kind === 'enum') {
    return `\nfunction arb_${def.name}(): fc.Arbitrary<unknown> {\n  return fc.constantFrom(${def.values.map((v) => JSON.stringify(v)).join(', ')});\n}\n`;
  }
  const fields = def.properties.map((p) => `${key(p.name)}: ${arb(p.type)}`).join(', ');
  return `\nfunction arb_${def.name}(): fc.Arbitrary<unknown> {\n  return withExtras(fc.record({ ${fields} }, { requiredKeys: [] }));\n}\n`;
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
      return `fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), ${arb(ref.value)}, { maxKeys: 2 })`;
  }
}
