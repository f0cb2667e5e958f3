import { oneOfOptions, type PackageDef, type TypeRef } from '../model/types.ts';

/**
 * A deterministic exemplar of a type (seed 000, golden tests): every property set once, strings as
 * distinct decimal numerals (so that hooks converting text to numbers have something to convert), integers
 * counting up, the first enum value, one-element arrays and maps. A reference that names its target
 * either as a Kubernetes object (`name`) or as an Azure resource (`armId`) gets only `name`: the CRD's CEL
 * rule rejects both.
 */
export function exemplar(pkg: PackageDef, typeName: string): Record<string, unknown> {
  let counter = 1000;
  const next = (): number => {
    counter += 1;
    return counter;
  };
  const value = (ref: TypeRef): unknown => {
    switch (ref.kind) {
      case 'primitive':
        if (ref.primitive === 'string') return String(next());
        if (ref.primitive === 'integer') return next();
        if (ref.primitive === 'number') return next() + 0.5;
        if (ref.primitive === 'json') return { any: [String(next()), next()] };
        return true;
      case 'enum': {
        const def = pkg.types.get(ref.name);
        return def?.kind === 'enum' ? def.values[0] : undefined;
      }
      case 'object':
        return object(ref.name);
      case 'array':
        return [value(ref.element)];
      case 'map':
        return { key: value(ref.value) };
    }
  };
  const object = (name: string): Record<string, unknown> => {
    const def = pkg.types.get(name);
    if (def?.kind !== 'object') throw new Error(`${pkg.group}/${pkg.version}: no object type ${name}`);
    const out: Record<string, unknown> = {};
    const options = def.oneOf ? oneOfOptions(def) : [];
    // A oneOf root sets its first option only (seed 004): exactly one may be set.
    const props = def.properties.filter((p) => !options.includes(p) || p === options[0]);
    const reference = props.some((p) => p.name === 'name') && props.some((p) => p.name === 'armId');
    for (const p of props) if (!(reference && p.name === 'armId')) out[p.name] = value(p.type);
    return out;
  };
  return object(typeName);
}
