import type { ObjectDef, PackageDef, PropertyDef, TypeRef } from '../model/types.ts';
import { fromPackage, tsHeader } from './code.ts';

/**
 * `arm.ts` of an API package: per resource, the ARM layout (which spec and status properties sit at the
 * ARM root and which under `properties`) and wrappers for the request body and the status (untyped: no
 * per-package TypeScript types are generated, as nothing needs them and they grew with every version).
 */
export function emitArm(pkg: PackageDef): string {
  const out: string[] = [tsHeader()];
  out.push(`/** ARM payloads of ${pkg.group} ${pkg.version} (ARM API version ${pkg.armApiVersion}). */\n`);
  out.push(
    `import { type ArmLayout, type ArmResolvers, armBody, statusFromArm } from '${fromPackage('src/lib/conversion/arm.ts')}';\n`,
  );
  out.push(`import type { KubeObject } from '${fromPackage('src/lib/conversion/resource.ts')}';\n`);
  out.push(
    `\n/** The ARM API version these payloads are for. */\nexport const apiVersion = '${pkg.armApiVersion}';\n`,
  );
  for (const r of pkg.resources) {
    const objects: Record<string, Record<string, ArmValueShape>> = {};
    // How the operator's encoder writes unset collections: the same for every leaf of a oneOf root.
    const encoding = {
      ...(r.nullWhenUnset !== undefined ? { nullWhenUnset: r.nullWhenUnset } : {}),
      ...(r.emptyWhenUnset !== undefined ? { emptyWhenUnset: r.emptyWhenUnset } : {}),
      ...(r.liveChildren !== undefined ? { liveChildren: r.liveChildren } : {}),
    };
    const layout = r.oneOf
      ? {
          kind: 'oneOf',
          leaves: r.oneOf.map((leaf) => ({
            property: leaf.property,
            statusProperty: leaf.statusProperty,
            kindValue: leaf.kindValue,
            spec: specFields(pkg, leaf.specType, objects),
            status: fields(pkg, leaf.statusType),
          })),
          objects: sorted(objects),
          ...encoding,
        }
      : {
          kind: 'plain',
          spec: specFields(pkg, r.specType, objects),
          status: fields(pkg, r.statusType),
          objects: sorted(objects),
          ...(r.fixedName !== undefined ? { fixedName: r.fixedName } : {}),
          ...encoding,
        };
    out.push(`\n/** Where ${r.kind}'s properties sit in ARM (${r.armType}). */\n`);
    out.push(`export const ${r.kind}_armLayout: ArmLayout = ${JSON.stringify(layout)};\n`);
    out.push(
      `\n/** The ARM PUT body of a ${r.kind}: properties re-nested, azureName and owner dropped, references resolved (by the caller's resolvers for those by name), secrets never sent. */\n`,
    );
    out.push(
      `export function ${r.kind}_toArm(object: KubeObject, resolvers: ArmResolvers = {}): Record<string, unknown> {\n  return armBody(object, ${r.kind}_armLayout, resolvers);\n}\n`,
    );
    out.push(`\n/** The ${r.kind} status an ARM GET response describes. */\n`);
    out.push(
      `export function ${r.kind}_statusFromArm(response: Record<string, unknown>): Record<string, unknown> {\n  return statusFromArm(response, ${r.kind}_armLayout);\n}\n`,
    );
  }
  return out.join('');
}

/** How a value is sent to ARM (src/lib/conversion/arm.ts `ArmValue`). */
type ArmValueShape =
  | 0
  | { object: string }
  | { oneOf: string }
  | { array: ArmValueShape }
  | { map: ArmValueShape }
  | { reference: string }
  | { references: string }
  | { secret: string }
  | { fromConfig: string }
  | { identities: string }
  | { at: string; value: ArmValueShape };

/** The shape of one property: a transformed one says how it reaches ARM, the rest by their type. */
function propertyShape(
  pkg: PackageDef,
  p: PropertyDef,
  objects: Record<string, Record<string, ArmValueShape>>,
): ArmValueShape {
  const shape = transformedShape(pkg, p, objects);
  return p.armPath === undefined ? shape : { at: p.armPath, value: shape };
}

function transformedShape(
  pkg: PackageDef,
  p: PropertyDef,
  objects: Record<string, Record<string, ArmValueShape>>,
): ArmValueShape {
  if (!p.armAs) return shapeOf(pkg, p.type, objects);
  switch (p.armAs.how) {
    case 'reference':
      return { reference: p.armAs.name };
    case 'references':
      return { references: p.armAs.name };
    case 'secret':
      return { secret: p.armAs.name };
    case 'fromConfig':
      return { fromConfig: p.armAs.name };
    case 'identities':
      return { identities: p.armAs.name };
  }
}

/** The spec's fields with each value's shape; nested object types are collected into `objects`. */
function specFields(
  pkg: PackageDef,
  typeName: string,
  objects: Record<string, Record<string, ArmValueShape>>,
): { root: string[]; properties: string[]; values: Record<string, ArmValueShape> } {
  const def = pkg.types.get(typeName) as ObjectDef;
  const sent = def.properties.filter((p) => p.arm === 'root' || p.arm === 'properties');
  return {
    ...fields(pkg, typeName),
    values: Object.fromEntries(sent.map((p) => [p.name, propertyShape(pkg, p, objects)])),
  };
}

function shapeOf(
  pkg: PackageDef,
  ref: TypeRef,
  objects: Record<string, Record<string, ArmValueShape>>,
): ArmValueShape {
  switch (ref.kind) {
    case 'primitive':
    case 'enum':
      return 0;
    case 'array':
      return { array: shapeOf(pkg, ref.element, objects) };
    case 'map':
      return { map: shapeOf(pkg, ref.value, objects) };
    case 'object': {
      const def = pkg.types.get(ref.name) as ObjectDef;
      if (!Object.hasOwn(objects, ref.name)) {
        const type: Record<string, ArmValueShape> = {};
        objects[ref.name] = type;
        // A union's options in the order the operator tries them: the runtime sends the first one set.
        const order = def.armOneOf ?? def.properties.map((p) => p.name);
        for (const name of order) {
          const p = def.properties.find((q) => q.name === name);
          if (p) type[p.name] = propertyShape(pkg, p, objects);
        }
      }
      return def.armOneOf ? { oneOf: ref.name } : { object: ref.name };
    }
  }
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function fields(pkg: PackageDef, typeName: string): { root: string[]; properties: string[] } {
  const def = pkg.types.get(typeName) as ObjectDef;
  return {
    root: def.properties.filter((p) => p.arm === 'root').map((p) => p.name),
    properties: def.properties.filter((p) => p.arm === 'properties').map((p) => p.name),
  };
}
