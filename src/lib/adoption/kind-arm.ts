import { catalog } from '../../../generated/catalog.ts';
import { apiVersionOf } from './api-version.ts';
import { type ArmUriTemplate, armUriInDescription, parseArmUri } from './arm-uri.ts';

/** Where a kind's ARM shape came from: the cluster's (or given) CRD, the generated catalog, or naming inference. */
export type ArmSource = 'crd' | 'catalog' | 'inferred';

/** What one kind at one version is in ARM: its URI template, the API version to GET with, and the source. */
export interface KindArm {
  template: ArmUriTemplate;
  apiVersion: string | undefined;
  source: ArmSource;
}

/** The parts of a CRD this reads; a cluster's CRD and a parsed CRD file both fit. */
export interface CrdLike {
  spec: {
    group: string;
    names: { kind: string };
    versions: Array<{ name: string; schema?: { openAPIV3Schema?: { description?: string } } }>;
  };
}

/**
 * `group/kind` -> version name -> ARM URI template, from CRDs. A CRD none of whose versions carries an
 * `ARM URI` is indexed with no versions: the operator ships such CRDs for things that are not ARM resources.
 */
export type CrdArmIndex = Map<string, Map<string, ArmUriTemplate>>;

/**
 * The ASO v2.20.0 kinds that are not ARM resources, and what the operator manages them through. Their real
 * CRDs carry no `ARM URI`; listing them here gives the same answer when no cluster is reachable, so naming
 * inference never invents an ARM ID (and a misleading `create`) for them. A test keeps this list equal to
 * the real CRDs without an `ARM URI`.
 */
export const nonArmKinds: ReadonlyArray<{ group: string; kind: string; managedThrough: string }> = [
  { group: 'dbformysql.azure.com', kind: 'User', managedThrough: 'a SQL connection to its MySQL server' },
  {
    group: 'dbforpostgresql.azure.com',
    kind: 'User',
    managedThrough: 'a SQL connection to its PostgreSQL server',
  },
  { group: 'entra.azure.com', kind: 'SecurityGroup', managedThrough: 'Microsoft Graph' },
  { group: 'sql.azure.com', kind: 'User', managedThrough: 'a SQL connection to its database' },
];

/** Indexes the `ARM URI` of every version of the given CRDs, so one lookup per object is a map read. */
export function crdArmIndexOf(crds: Iterable<CrdLike>): CrdArmIndex {
  const index: CrdArmIndex = new Map();
  for (const crd of crds) {
    const versions = new Map<string, ArmUriTemplate>();
    for (const version of crd.spec.versions ?? []) {
      const uri = armUriInDescription(version.schema?.openAPIV3Schema?.description);
      const template = uri === undefined ? undefined : parseArmUri(uri);
      if (template) versions.set(version.name, template);
    }
    index.set(`${crd.spec.group}/${crd.spec.names.kind}`.toLowerCase(), versions);
  }
  return index;
}

/** The template a catalogue entry implies (the catalog stores the ARM type and scope, not the template). */
export function templateOfArmType(
  armType: string,
  scope: ArmUriTemplate['scope'],
  fixedName?: string,
): ArmUriTemplate | undefined {
  const [provider, ...types] = armType.split('/');
  if (provider === undefined || types.length === 0) return undefined;
  if (
    provider.toLowerCase() === 'microsoft.resources' &&
    types.join('/').toLowerCase() === 'resourcegroups'
  ) {
    return parseArmUri('/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}');
  }
  const prefix = {
    resourceGroup: '/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}',
    subscription: '/subscriptions/{subscriptionId}',
    extension: '/{scope}',
    tenant: '',
  }[scope];
  // A fixed name is part of the template, as in the operator's ARM URI (`.../blobServices/default`).
  const last = types.length - 1;
  return parseArmUri(
    `${prefix}/providers/${provider}${types
      .map((t, i) => `/${t}/${i === last && fixedName !== undefined ? fixedName : `{${singular(t)}Name}`}`)
      .join('')}`,
  );
}

function singular(type: string): string {
  return type.endsWith('s') ? type.slice(0, -1) : type;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * ASO's naming conventions, for a kind no CRD and no catalogue describes: the group `foo.azure.com` is the
 * provider `Microsoft.Foo` (casing unknown, ARM is case-insensitive), a kind without owner kind is a
 * resource-group resource named by its plural, and `ParentsChild` under owner `Parent` is `parents/childs`.
 */
export function inferredTemplate(
  group: string,
  kind: string,
  ownerKinds: string[],
): ArmUriTemplate | undefined {
  const short = group.replace(/\.azure\.com$/i, '');
  if (short === 'resources' && kind === 'ResourceGroup')
    return templateOfArmType('Microsoft.Resources/resourceGroups', 'subscription');
  const provider = `Microsoft.${short.charAt(0).toUpperCase()}${short.slice(1)}`;
  const types: string[] = [];
  let rest = kind;
  for (const owner of ownerKinds) {
    const plural = `${owner}s`;
    if (rest.startsWith(plural) && rest.length > plural.length) {
      types.push(lowerFirst(plural));
      rest = rest.slice(plural.length);
    }
  }
  types.push(lowerFirst(rest.endsWith('s') ? rest : `${rest}s`));
  return templateOfArmType(`${provider}/${types.join('/')}`, 'resourceGroup');
}

/**
 * What a kind at a version is in ARM, from the best source there is: (a) CRDs, (b) the generated catalog,
 * (c) naming inference (flagged). It exists so adopt-check works on any ASO kind, not only generated ones.
 */
export function kindArmOf(
  apiVersion: string,
  kind: string,
  crds: CrdArmIndex,
  ownerKinds: string[] = [],
): KindArm | undefined {
  const [group = '', version = ''] = apiVersion.split('/');
  const fromCrd = crds.get(`${group}/${kind}`.toLowerCase());
  const crdTemplate = fromCrd?.get(version) ?? (fromCrd ? [...fromCrd.values()].at(-1) : undefined);
  if (crdTemplate) return { template: crdTemplate, apiVersion: apiVersionOf(version), source: 'crd' };
  const entry = catalog.find((e) => e.group === group && e.kind === kind);
  if (entry) {
    const template = templateOfArmType(entry.armType, entry.scope, entry.fixedName);
    const known = entry.versions.find((v) => v.version === version);
    if (template)
      return { template, apiVersion: known?.armApiVersion ?? apiVersionOf(version), source: 'catalog' };
  }
  if (nonArmReasonOf(apiVersion, kind, crds) !== undefined) return undefined;
  const inferred = inferredTemplate(group, kind, ownerKinds);
  return inferred ? { template: inferred, apiVersion: apiVersionOf(version), source: 'inferred' } : undefined;
}

/**
 * Why a kind has no ARM ID at all, when that is known: a real ASO kind that is not an ARM resource, or a
 * cluster CRD that the catalog does not know and whose versions carry no `ARM URI`. It exists so such an
 * object is reported as something adopt-check cannot see, rather than as an inferred resource to create.
 */
export function nonArmReasonOf(apiVersion: string, kind: string, crds: CrdArmIndex): string | undefined {
  const group = apiVersion.split('/')[0] ?? '';
  const known = nonArmKinds.find((k) => k.group === group.toLowerCase() && k.kind === kind);
  if (known) {
    return `not an ARM resource: ASO manages it through ${known.managedThrough}, which adopt-check does not reach`;
  }
  const fromCrd = crds.get(`${group}/${kind}`.toLowerCase());
  if (fromCrd && fromCrd.size === 0 && !catalog.some((e) => e.group === group && e.kind === kind)) {
    return "not an ARM resource: the cluster's CRD for it names no ARM URI";
  }
  return undefined;
}
