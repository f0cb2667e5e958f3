import { declaresBag, type PackageDef, type TypeDef } from '../model/types.ts';
import { doc, fromPackage, key, tsHeader } from './code.ts';
import { tsType } from './ts-type.ts';

/**
 * `types.ts` of one package: an interface per object type, a string-literal union per enum, and an
 * interface per resource. The generated object types of storage variants get `$propertyBag`, which holds
 * what the variant cannot type; API versions and the operator's runtime types have none, as in the
 * operator. Sorted by name for stable output.
 */
export function emitTypes(pkg: PackageDef): string {
  const out: string[] = [tsHeader()];
  out.push(
    `/**\n * Types of ${pkg.group} ${pkg.version}${pkg.storage ? ' (storage variant: all optional, with property bags)' : ` (ARM API version ${pkg.armApiVersion})`}.\n */\n`,
  );
  const types = [...pkg.types.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  if (types.some((def) => def.kind === 'object' && declaresBag(pkg, def)))
    out.push(
      `import type { PropertyBagData } from '${fromPackage('src/lib/conversion/property-bag.ts')}';\n`,
    );
  out.push('\n/** The version name of this package. */\n');
  out.push(`export const version = '${pkg.version}';\n`);
  for (const resource of pkg.resources) {
    out.push('\n');
    out.push(doc(resource.description ?? `${resource.kind} (${resource.armType}).`));
    out.push(
      `export interface ${resource.kind} {\n  apiVersion?: string;\n  kind?: '${resource.kind}';\n  metadata?: Record<string, unknown>;\n  spec?: ${resource.specType};\n  status?: ${resource.statusType};\n}\n`,
    );
  }
  for (const def of types) {
    out.push('\n');
    out.push(emitType(def, def.kind === 'object' && declaresBag(pkg, def)));
  }
  return out.join('');
}

function emitType(def: TypeDef, bag: boolean): string {
  if (def.kind === 'enum') {
    const values = def.values.map((v) => JSON.stringify(v)).join(' | ');
    return `/** Enum ${def.name} (${def.base}). */\nexport type ${def.name} = ${values || 'never'};\n`;
  }
  const lines = [doc(def.description ?? `Object type ${def.name}.`), `export interface ${def.name} {\n`];
  if (def.oneOf)
    lines[0] = doc(`${def.description ?? def.name}\n\nOneOf: exactly one of the options must be set.`);
  for (const p of def.properties) {
    lines.push(doc(p.description, '  '));
    lines.push(`  ${key(p.name)}${p.required ? '' : '?'}: ${tsType(p.type)};\n`);
  }
  if (bag)
    lines.push(
      '  /** Values from other versions this version cannot hold, as JSON text. */\n  $propertyBag?: PropertyBagData;\n',
    );
  lines.push('}\n');
  return lines.join('');
}
