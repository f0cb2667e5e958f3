import type { LiveChildren, LiveElement } from '../../lib/conversion/arm.ts';
import type { ArmGoPackage } from './arm-paths.ts';

/**
 * A collection of child resources that ARM also lists inside the parent, where a PUT of the parent without
 * them would delete them: ASO v2.20.0's extensions (`ModifyARMResource` in `api/network/customizations` and
 * `api/compute/customizations`) GET the resource and copy Azure's children into the body. Facts from the
 * operator's hand-written code, which the generated code cannot show; a test checks this list against every
 * `ModifyARMResource` of the module.
 */
export interface LiveChildrenFact {
  /** The ARM resource type, as the schemas name it. */
  readonly armType: string;
  /** The collection's path in the ARM body, by JSON names. */
  readonly path: readonly string[];
  readonly merge: LiveChildren['merge'];
  /**
   * Whether the operator sends the body as it is when Azure's resource lacks an object on the way to the
   * collection (a scale set without an extension profile). Otherwise a missing collection fails its PUT.
   */
  readonly parentsOptional: boolean;
}

/** The operator's child collections, one per kind that has one (ASO v2.20.0). */
export const liveChildrenFacts: readonly LiveChildrenFact[] = [
  {
    armType: 'Microsoft.Compute/virtualMachineScaleSets',
    path: ['properties', 'virtualMachineProfile', 'extensionProfile', 'extensions'],
    merge: 'byName',
    parentsOptional: true,
  },
  {
    armType: 'Microsoft.Network/loadBalancers',
    path: ['properties', 'inboundNatRules'],
    merge: 'byName',
    parentsOptional: false,
  },
  {
    armType: 'Microsoft.Network/networkSecurityGroups',
    path: ['properties', 'securityRules'],
    merge: 'replace',
    parentsOptional: false,
  },
  {
    armType: 'Microsoft.Network/routeTables',
    path: ['properties', 'routes'],
    merge: 'replace',
    parentsOptional: false,
  },
  {
    armType: 'Microsoft.Network/virtualNetworks',
    path: ['properties', 'subnets'],
    merge: 'replace',
    parentsOptional: false,
  },
];

/**
 * The child collection of the ARM resource type `armType` at the API version of `pkg`, with what of each
 * element the operator's copy keeps: it marshals Azure's element to JSON and unmarshals it into the Go
 * element type of the ARM spec (`fuzzySetResource`), so only that struct's fields survive, named as its
 * JSON tags name them. Undefined for a type without one.
 */
export function liveChildrenOf(pkg: ArmGoPackage, armType: string): LiveChildren | undefined {
  const fact = liveChildrenFacts.find((f) => f.armType.toLowerCase() === armType.toLowerCase());
  const spec = pkg.specOf.get(armType.toLowerCase());
  if (!fact || spec === undefined) return undefined;
  let struct = spec;
  for (const [i, name] of fact.path.entries()) {
    const field = pkg.structs.get(struct)?.find((f) => f.json === name);
    if (!field || !pkg.structs.has(field.type))
      throw new Error(`${armType}: the operator's ARM type ${struct} has no object ${name}`);
    const last = i === fact.path.length - 1;
    if (last !== (field.containers === 1 && field.wrappers.endsWith('[]')))
      throw new Error(`${armType}: ${fact.path.slice(0, i + 1).join('.')} is ${last ? 'no list' : 'a list'}`);
    struct = field.type;
  }
  return {
    path: fact.path.join('.'),
    merge: fact.merge,
    ...(fact.parentsOptional ? { parentsOptional: true as const } : {}),
    element: elementOf(pkg, struct, armType, new Set()),
  };
}

function elementOf(
  pkg: ArmGoPackage,
  struct: string,
  armType: string,
  seen: ReadonlySet<string>,
): LiveElement {
  if (seen.has(struct)) throw new Error(`${armType}: ${struct} contains itself`);
  const out: Record<string, LiveElement | null> = {};
  for (const field of pkg.structs.get(struct) ?? []) {
    // Go writes a field that is not a pointer or collection marked omitempty even when Azure's element
    // lacks it; the copy below does not model that, and none of the operator's element types has one.
    if (field.wrappers === '' || field.nullWhenUnset)
      throw new Error(`${armType}: ${struct}.${field.goName} is written even when unset`);
    if (!pkg.structs.has(field.type)) {
      // A raw JSON value keeps `{}` and `[]`, which the runtime leaves out as Go leaves out an empty list
      // or map; none of the element types has one outside a map.
      if (field.type === 'v1.JSON' && !/\[\]|map\[/.test(field.wrappers))
        throw new Error(`${armType}: ${struct}.${field.goName} is raw JSON`);
      out[field.json] = null;
      continue;
    }
    if (field.wrappers.includes('map['))
      throw new Error(`${armType}: ${struct}.${field.goName} is a map of objects`);
    out[field.json] = elementOf(pkg, field.type, armType, new Set([...seen, struct]));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
