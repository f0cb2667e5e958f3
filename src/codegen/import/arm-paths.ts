import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LiveChildren } from '../../lib/conversion/arm.ts';
import { liveChildrenOf } from './live-children.ts';

/**
 * Where the operator's ConvertToARM puts each spec property, read from its generated ARM Go types
 * (`api/<group>/<version>/arm/*_types_gen.go`), for what the CRDs cannot say: the CRDs flatten every
 * `properties` object, so a nested object's own ARM `properties` (a subnet's delegation, a NIC's IP
 * configuration), a property ARM keeps at the root that the import put under `properties` or the reverse
 * (a storage account's `placement`, Redis's `sku`), and an ARM name that differs from the Kubernetes one in
 * more than case (`resourceID`) are known only from the Go types. The import records each such property's
 * ARM path in its schema as `x-arm-path`; the generated ARM layout sends the value there.
 */

interface ArmField {
  readonly goName: string;
  readonly json: string;
  /** The Go type with pointers, slices and maps stripped: a struct name of the package, or a basic type. */
  readonly type: string;
  /** How many lists and maps the type wraps the struct in (`[]IPRule`: one), outermost first. */
  readonly containers: number;
  /** The Go type's pointers, lists and maps as written before the struct or basic type (`*`, `[]`, `map[string]`). */
  readonly wrappers: string;
  /**
   * Whether Go's encoder writes the field when it is nil (a pointer, list or map whose tag lacks
   * `omitempty`): as `null`.
   */
  readonly nullWhenUnset: boolean;
}

/** The structs of one ARM Go package, and which struct is the spec of which ARM resource type. */
export interface ArmGoPackage {
  readonly structs: ReadonlyMap<string, readonly ArmField[]>;
  /** ARM resource type (`Microsoft.Network/networkInterfaces`, lower-cased) -> its spec struct. */
  readonly specOf: ReadonlyMap<string, string>;
  /**
   * A discriminated union (JSON oneOf) -> the JSON names of its options, in the order its MarshalJSON tries
   * them: the struct is sent as its first option that is set, and cannot be sent with none.
   */
  readonly oneOfs: ReadonlyMap<string, readonly string[]>;
  /**
   * The collections the operator's ConvertToARM sets to an empty list or map when the spec leaves them unset
   * ("serialize all collections explicitly": AKS's node labels, taints and tags), by the struct that holds
   * them: each as its Go field names from that struct (`Properties`, `NodeLabels`) and what it is.
   */
  readonly explicit: ReadonlyMap<
    string,
    readonly { readonly goPath: readonly string[]; readonly kind: 'list' | 'map' }[]
  >;
}

/** Reads the ARM Go package at `dir` (`.../api/network/v1api20240301/arm`); undefined when absent. */
export function readArmGoPackage(dir: string): ArmGoPackage | undefined {
  if (!existsSync(dir)) return undefined;
  const structs = new Map<string, ArmField[]>();
  const specOf = new Map<string, string>();
  const unions = new Map<string, string[]>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('_types_gen.go'))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields: ArmField[] = [];
      // A tag may name other keys before `json` (`conversion:"noarmconversion"` on a property the operator
      // fills itself, as a network security group's rules).
      for (const f of (m[2] ?? '').matchAll(/^\t(\w+)\s+(\S+)\s+`(?:[^`"]*"[^"]*"\s+)*?json:"([^"]*)"/gm)) {
        const [json = '', ...options] = (f[3] ?? '').split(',');
        if (!json || json === '-') continue;
        const goType = f[2] ?? '';
        const wrappers = /^(\*|\[\]|map\[string\])*/.exec(goType)?.[0] ?? '';
        fields.push({
          goName: f[1] ?? '',
          json,
          type: goType.slice(wrappers.length),
          containers: (wrappers.match(/\[\]|map\[string\]/g) ?? []).length,
          wrappers,
          nullWhenUnset: wrappers !== '' && !options.includes('omitempty'),
        });
      }
      structs.set(m[1] ?? '', fields);
    }
    for (const m of text.matchAll(/^func \(\w+ \*?(\w+)\) GetType\(\) string \{\n\treturn "([^"]+)"/gm))
      specOf.set((m[2] ?? '').toLowerCase(), m[1] ?? '');
    for (const m of text.matchAll(
      /^func \((\w+) (\w+)\) MarshalJSON\(\) \(\[\]byte, error\) \{\n([\s\S]*?)^\}/gm,
    )) {
      const receiver = m[1] ?? '';
      const tried = [...(m[3] ?? '').matchAll(new RegExp(`^\\tif ${receiver}\\.(\\w+) != nil \\{`, 'gm'))];
      unions.set(
        m[2] ?? '',
        tried.map((t) => t[1] ?? ''),
      );
    }
  }
  const oneOfs = new Map<string, string[]>();
  for (const [struct, goNames] of unions) {
    const fields = structs.get(struct) ?? [];
    oneOfs.set(
      struct,
      goNames.map((goName) => fields.find((f) => f.goName === goName)?.json ?? goName),
    );
  }
  return { structs, specOf, oneOfs, explicit: explicitCollectionsIn(join(dir, '..')) };
}

/** The explicit collections (ArmGoPackage.explicit) of the API package at `dir`, from its ConvertToARM code. */
function explicitCollectionsIn(dir: string): ArmGoPackage['explicit'] {
  const out = new Map<string, { goPath: string[]; kind: 'list' | 'map' }[]>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('_types_gen.go'))
    .sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    if (!text.includes('serialize all collections explicitly')) continue;
    for (const m of text.matchAll(/^func \(\w+ \*(\w+)\) ConvertToARM\(resolved[^\n]*\n([\s\S]*?)^\}/gm)) {
      for (const set of (m[2] ?? '').matchAll(
        /serialize all collections explicitly\n\t+result((?:\.\w+)+) = (make\(map|\[\])/g,
      )) {
        const list = out.get(m[1] ?? '') ?? [];
        list.push({ goPath: (set[1] ?? '').slice(1).split('.'), kind: set[2] === '[]' ? 'list' : 'map' });
        out.set(m[1] ?? '', list);
      }
    }
  }
  return out;
}

/** The Go package folders of the operator that hold an ARM API version of a group (`2024-03-01`). */
export function armGoPackagesFor(operatorGoDir: string, group: string, apiVersion: string): string[] {
  const dir = join(operatorGoDir, 'api', group);
  if (!existsSync(dir)) return [];
  const date = apiVersion.replace(/-preview$/, '').replaceAll('-', '');
  const preview = apiVersion.endsWith('-preview') ? 'preview' : '';
  const pattern = new RegExp(`^v(1api)?${date}${preview}$`);
  return readdirSync(dir)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => join(dir, name, 'arm'));
}

const packages = new Map<string, ArmGoPackage | undefined>();

/**
 * The ARM Go package that holds the spec of `armType` at an API version, read once per folder: the schema
 * files of one API version share their package, and each would otherwise read all of it again.
 */
export function armGoPackageOf(
  operatorGoDir: string,
  group: string,
  apiVersion: string,
  armType: string,
): ArmGoPackage | undefined {
  for (const dir of armGoPackagesFor(operatorGoDir, group, apiVersion)) {
    if (!packages.has(dir)) packages.set(dir, readArmGoPackage(dir));
    const pkg = packages.get(dir);
    if (pkg?.specOf.has(armType.toLowerCase())) return pkg;
  }
  return undefined;
}

/** What `x-arm-path` records: the property's ARM path relative to the object that holds it in the CRD. */
export type ArmPaths = Map<string, string>;

/**
 * The ARM path of each property of `properties` (the CRD's flattened view of a Go ARM struct) where it is
 * not simply its own name: `properties.<json>` when ARM nests it under the struct's `properties`, another
 * JSON name when only the case of the Go field matches, or the bare name when it sits at the struct's root
 * though the CRD's schema listed it under `properties` (`placedUnderProperties`). Properties the struct
 * does not know (references the operator transforms, ASO's own fields) get no path.
 */
export function armPathsOf(
  pkg: ArmGoPackage,
  struct: string,
  properties: readonly string[],
  placedUnderProperties: ReadonlySet<string> = new Set(),
): ArmPaths {
  const out: ArmPaths = new Map();
  const fields = pkg.structs.get(struct);
  if (!fields) return out;
  const nested = fields.find((f) => f.json === 'properties');
  const inner = nested ? pkg.structs.get(nested.type) : undefined;
  const find = (list: readonly ArmField[] | undefined, name: string) =>
    list?.find((f) => f.json === name) ??
    list?.find(
      (f) => f.json.toLowerCase() === name.toLowerCase() || f.goName.toLowerCase() === name.toLowerCase(),
    ) ??
    // The operator renames a spec property `conditions` that would clash with its own status conditions
    // after the resource (a CDN rule's `ruleconditions`); ARM still calls it `conditions`.
    (/.conditions$/i.test(name) ? list?.find((f) => f.json === 'conditions') : undefined) ??
    // A property of ARM's `properties` named like one at the root is flattened as `properties_<name>`
    // (a workbook's `properties_tags` beside its resource tags).
    (/^properties_./.test(name) && list === inner
      ? list?.find((f) => f.json === name.slice('properties_'.length))
      : undefined);
  for (const property of properties) {
    // `<x>FromSecret` (a secret reference the operator adds beside `<x>`) is sent as `<x>`, read from the secret.
    const fromSecret = /^(.+)FromSecret$/.exec(property)?.[1];
    const name =
      fromSecret !== undefined && !find(fields, property) && !find(inner, property) ? fromSecret : property;
    const underProperties = placedUnderProperties.has(property);
    // A struct's own `properties` field is a plain field only where it holds no nested struct of the name.
    const atRoot = (() => {
      const field = find(fields, name);
      return field?.json === 'properties' && inner !== undefined && name !== 'properties' ? undefined : field;
    })();
    const below = find(inner, name);
    // Where the schema put it is looked at first: a name both levels have stays where it is.
    if (underProperties && below) {
      if (below.json !== property) out.set(property, `properties.${below.json}`);
    } else if (!underProperties && atRoot) {
      if (atRoot.json !== property) out.set(property, atRoot.json);
    } else if (below) out.set(property, `properties.${below.json}`);
    else if (atRoot) out.set(property, atRoot.json);
    else {
      const wrapped = wrappedField(pkg, fields, name);
      if (wrapped) out.set(property, wrapped);
    }
  }
  return out;
}

/**
 * The ARM path of a property that ARM wraps in an object holding only it, where the schema flattened the
 * wrapper away (an IPAM allocation's pool ID: the schema's `id`, ARM's `pool.id`); undefined elsewhere.
 */
function wrappedField(pkg: ArmGoPackage, fields: readonly ArmField[], name: string): string | undefined {
  for (const field of fields) {
    if (field.json === 'properties') continue;
    const inner = pkg.structs.get(field.type);
    if (inner?.length === 1 && inner[0]?.json.toLowerCase() === name.toLowerCase())
      return `${field.json}.${inner[0].json}`;
  }
  return undefined;
}

/** The parts of a schema file the annotation reads and writes. */
interface SchemaNode {
  $ref?: string;
  type?: string;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  properties?: Record<string, SchemaNode>;
  oneOf?: unknown[];
  'x-arm-path'?: string;
  'x-arm-one-of'?: string[];
  'x-arm-null-when-unset'?: string[];
  'x-arm-empty-when-unset'?: Record<string, 'list' | 'map'>;
  'x-arm-live-children'?: LiveChildren;
  'x-ms-client-flatten'?: boolean;
}

interface SchemaDocument {
  resourceDefinitions?: Record<string, SchemaNode>;
  definitions?: Record<string, SchemaNode>;
}

/** Properties of the resource root that are ARM's own, never a spec property. */
const armOwn = new Set(['name', 'type', 'apiVersion', 'id']);

/**
 * Writes `x-arm-path` on every spec property of a schema document whose ARM path differs from its place
 * in the schema, from the ARM Go package of the document's API version; removes any it wrote before, so
 * the pass can run again. Returns how many it wrote. The resource's own properties are placed relative to
 * the resource body (root or `properties`); a nested definition's relative to that object.
 */
export function annotateArmPaths(document: SchemaDocument, pkg: ArmGoPackage, armType: string): number {
  const definitions = document.definitions ?? {};
  for (const node of [...Object.values(document.resourceDefinitions ?? {}), ...Object.values(definitions)]) {
    delete node['x-arm-one-of'];
    delete node['x-arm-null-when-unset'];
    delete node['x-arm-empty-when-unset'];
    delete node['x-arm-live-children'];
    for (const property of Object.values(node.properties ?? {})) delete property['x-arm-path'];
  }
  let written = 0;
  const annotate = (node: SchemaNode | undefined, name: string, path: string) => {
    const property = node?.properties?.[name];
    if (property) {
      property['x-arm-path'] = path;
      written++;
    }
  };
  let innerName: string | undefined;
  // Which Go struct each definition is: its own name, unless the walk from the spec finds another (the
  // import names a topic's `InputSchemaMapping` `TopicInputSchemaMapping`).
  let structOf = (name: string): string | undefined => (pkg.structs.has(name) ? name : undefined);
  const resource = Object.values(document.resourceDefinitions ?? {})[0];
  const spec = pkg.specOf.get(armType.toLowerCase());
  if (resource && spec) {
    const { nulls, explicit } = unsetCollectionsOf(pkg, spec);
    if (nulls.length > 0) {
      resource['x-arm-null-when-unset'] = nulls;
      written++;
    }
    if (Object.keys(explicit).length > 0) {
      resource['x-arm-empty-when-unset'] = explicit;
      written++;
    }
    const children = liveChildrenOf(pkg, armType);
    if (children) {
      resource['x-arm-live-children'] = children;
      written++;
    }
  }
  if (resource && !resource.oneOf && spec) {
    const propertiesRef = resource.properties?.properties;
    const flattened = propertiesRef?.$ref !== undefined && propertiesRef['x-ms-client-flatten'] !== false;
    innerName = flattened ? propertiesRef?.$ref?.replace('#/definitions/', '') : undefined;
    const inner = innerName === undefined ? undefined : definitions[innerName];
    const root = Object.keys(resource.properties ?? {}).filter(
      (name) => !armOwn.has(name) && !(name === 'properties' && flattened),
    );
    const innerKeys = Object.keys(inner?.properties ?? {});
    const paths = armPathsOf(pkg, spec, [...root, ...innerKeys], new Set(innerKeys));
    for (const [name, path] of paths) annotate(innerKeys.includes(name) ? inner : resource, name, path);
    const matched = new Map<string, string>();
    const innerStruct = armFieldAt(pkg, spec, 'properties')?.type;
    for (const name of root) matchDefinition(resource, name, spec, paths, pkg, definitions, matched);
    for (const name of innerKeys)
      if (inner) matchDefinition(inner, name, spec, paths, pkg, definitions, matched, innerStruct);
    structOf = (name) => matched.get(name) ?? (pkg.structs.has(name) ? name : undefined);
  }
  for (const [name, node] of Object.entries(definitions)) {
    const struct = structOf(name);
    if (name === innerName || struct === undefined) continue;
    for (const [property, path] of armPathsOf(pkg, struct, Object.keys(node.properties ?? {})))
      annotate(node, property, path);
    const options = oneOfOptionsOf(pkg, struct, Object.keys(node.properties ?? {}));
    if (options) {
      node['x-arm-one-of'] = options;
      written++;
    }
  }
  return written;
}

/**
 * The ARM body paths (a list's elements and a map's values as `[]`: `properties.networkAcls.ipRules`,
 * `properties.rules[].definition.filters.blobTypes`) of every field the operator's encoder writes as `null`
 * when unset, wherever the object holding it is sent. A union's options are sent in its place, so their
 * fields are at the union's own path. Sorted.
 */
export function nullWhenUnsetPathsOf(pkg: ArmGoPackage, spec: string): string[] {
  return unsetCollectionsOf(pkg, spec).nulls;
}

/**
 * The ARM body paths of the operator's collections sent empty when unset ({@link ArmGoPackage.explicit}),
 * each with what it is, as {@link nullWhenUnsetPathsOf} finds the null ones. Sorted.
 */
export function explicitWhenUnsetPathsOf(pkg: ArmGoPackage, spec: string): Record<string, 'list' | 'map'> {
  return unsetCollectionsOf(pkg, spec).explicit;
}

/** Both of the above from one walk of the spec's structs, each sorted. */
function unsetCollectionsOf(
  pkg: ArmGoPackage,
  spec: string,
): { nulls: string[]; explicit: Record<string, 'list' | 'map'> } {
  const out = new Set<string>();
  const explicit = new Map<string, 'list' | 'map'>();
  const walk = (struct: string, prefix: string, within: ReadonlySet<string>) => {
    const below = new Set([...within, struct]);
    for (const { goPath, kind } of pkg.explicit.get(struct) ?? []) {
      let holder: string | undefined = struct;
      const json: string[] = [];
      for (const goName of goPath) {
        const field: ArmField | undefined =
          holder === undefined ? undefined : pkg.structs.get(holder)?.find((f) => f.goName === goName);
        if (!field) break;
        json.push(field.json);
        holder = field.type;
      }
      if (json.length === goPath.length)
        explicit.set([prefix, ...json].filter((p) => p !== '').join('.'), kind);
    }
    const options = pkg.oneOfs.get(struct);
    for (const field of pkg.structs.get(struct) ?? []) {
      if (options !== undefined) {
        // Only the chosen option is written, in the union's place.
        if (options.includes(field.json) && !below.has(field.type)) walk(field.type, prefix, below);
        continue;
      }
      const path = prefix === '' ? field.json : `${prefix}.${field.json}`;
      if (field.nullWhenUnset) out.add(path);
      // A struct met again below itself is not walked again: its paths would never end.
      if (pkg.structs.has(field.type) && !below.has(field.type))
        walk(field.type, `${path}${'[]'.repeat(field.containers)}`, below);
    }
  };
  walk(spec, '', new Set());
  for (const path of explicit.keys()) out.delete(path);
  return {
    nulls: [...out].sort(),
    explicit: Object.fromEntries([...explicit].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

/** The field at a dotted ARM path below a struct (`properties.delegations`), through nested structs. */
function armFieldAt(pkg: ArmGoPackage, struct: string, path: string): ArmField | undefined {
  let field: ArmField | undefined;
  let current: string | undefined = struct;
  for (const segment of path.split('.')) {
    field = current === undefined ? undefined : pkg.structs.get(current)?.find((f) => f.json === segment);
    if (!field) return undefined;
    current = field.type;
  }
  return field;
}

/**
 * Matches the definition that property `name` of `node` refers to (directly, or as its array's items or
 * map's values) with the Go struct of the ARM field it is sent as, then the definitions below it, once each.
 * `struct` holds the field (`within`, for a property of the flattened `properties`, holds it under that name).
 */
function matchDefinition(
  node: SchemaNode,
  name: string,
  struct: string,
  paths: ArmPaths,
  pkg: ArmGoPackage,
  definitions: Readonly<Record<string, SchemaNode>>,
  matched: Map<string, string>,
  within?: string,
): void {
  const property = node.properties?.[name];
  const target =
    property?.$ref ??
    property?.items?.$ref ??
    (typeof property?.additionalProperties === 'object' ? property.additionalProperties.$ref : undefined);
  if (target === undefined) return;
  const definition = target.replace('#/definitions/', '');
  if (matched.has(definition)) return;
  const armPath = paths.get(name) ?? (within === undefined ? name : `properties.${name}`);
  const found =
    armFieldAt(pkg, struct, armPath) ??
    pkg.structs.get(within ?? struct)?.find((f) => f.json.toLowerCase() === name.toLowerCase());
  if (!found || !pkg.structs.has(found.type)) return;
  matched.set(definition, found.type);
  const child = definitions[definition];
  if (!child) return;
  const childPaths = armPathsOf(pkg, found.type, Object.keys(child.properties ?? {}));
  for (const inner of Object.keys(child.properties ?? {}))
    matchDefinition(child, inner, found.type, childPaths, pkg, definitions, matched);
}

/**
 * The options of a nested discriminated union (a CDN rule's action, a metric alert's criteria), named as
 * the schema names its properties, in the order the operator's MarshalJSON tries them; undefined for any
 * other struct, or one whose options the schema does not all have (nothing then claims to know the order).
 */
function oneOfOptionsOf(
  pkg: ArmGoPackage,
  struct: string,
  properties: readonly string[],
): string[] | undefined {
  const options = pkg.oneOfs.get(struct);
  if (!options || options.length === 0) return undefined;
  const named = options.map((json) => properties.find((p) => p.toLowerCase() === json.toLowerCase()));
  return named.every((p) => p !== undefined) && named.length === properties.length ? named : undefined;
}

/**
 * Copies the `x-arm-path`s of `previous` (the schema file an import replaces) onto the same properties of
 * `document`: an import without the operator's Go types keeps what the last import read from them, as it
 * keeps the status enums.
 */
export function keepArmPaths(document: SchemaDocument, previous: SchemaDocument): void {
  const pairs: [SchemaNode | undefined, SchemaNode | undefined][] = [
    ...Object.entries(previous.resourceDefinitions ?? {}).map(
      ([name, node]): [SchemaNode | undefined, SchemaNode | undefined] => [
        node,
        document.resourceDefinitions?.[name],
      ],
    ),
    ...Object.entries(previous.definitions ?? {}).map(
      ([name, node]): [SchemaNode | undefined, SchemaNode | undefined] => [
        node,
        document.definitions?.[name],
      ],
    ),
  ];
  for (const [from, to] of pairs) {
    if (from?.['x-arm-one-of'] !== undefined && to) to['x-arm-one-of'] = from['x-arm-one-of'];
    if (from?.['x-arm-null-when-unset'] !== undefined && to)
      to['x-arm-null-when-unset'] = from['x-arm-null-when-unset'];
    if (from?.['x-arm-empty-when-unset'] !== undefined && to)
      to['x-arm-empty-when-unset'] = from['x-arm-empty-when-unset'];
    if (from?.['x-arm-live-children'] !== undefined && to)
      to['x-arm-live-children'] = from['x-arm-live-children'];
    for (const [name, property] of Object.entries(from?.properties ?? {})) {
      const target = to?.properties?.[name];
      if (property['x-arm-path'] !== undefined && target) target['x-arm-path'] = property['x-arm-path'];
    }
  }
}
