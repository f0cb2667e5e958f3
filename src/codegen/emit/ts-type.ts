import type { TypeRef } from '../model/types.ts';

/** The TypeScript type of a reference, qualified with a namespace alias when given. */
export function tsType(ref: TypeRef, ns?: string): string {
  const q = (name: string): string => (ns ? `${ns}.${name}` : name);
  switch (ref.kind) {
    case 'primitive':
      if (ref.primitive === 'json') return 'unknown';
      return ref.primitive === 'integer' ? 'number' : ref.primitive;
    case 'enum':
    case 'object':
      return q(ref.name);
    case 'array': {
      const element = tsType(ref.element, ns);
      return element.includes(' ') ? `Array<${element}>` : `${element}[]`;
    }
    case 'map':
      return `Record<string, ${tsType(ref.value, ns)}>`;
  }
}
