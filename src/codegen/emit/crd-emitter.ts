import { stringify } from 'yaml';
import type { KindGraph } from '../conversions/graph.ts';
import type { KubernetesKindSchema } from '../model/kubernetes-kinds.ts';
import { isCurrentPrefix, type PackageDef } from '../model/types.ts';
import { compareVersions } from '../model/versions.ts';
import { hashHeader } from './code.ts';
import { objectSchema } from './openapi.ts';

/** The URL the committed CRDs name; the control-plane fixture rewrites clientConfig at apply time. */
export const placeholderWebhookUrl = 'https://127.0.0.1:9443/convert';

const printerColumns = ['Ready', 'Severity', 'Reason', 'Message'].map((name) => ({
  jsonPath: `.status.conditions[?(@.type=='Ready')].${name === 'Ready' ? 'status' : name.toLowerCase()}`,
  name,
  type: 'string',
}));

/**
 * One CustomResourceDefinition (apiextensions.k8s.io/v1) per kind: every API version and storage variant
 * served, the hub as the storage version, schemas from the types, the status subresource, the operator's
 * printer columns and label, and a conversion webhook stanza.
 */
export function emitCrd(
  graph: KindGraph,
  groupName: string,
  lookup: (version: string) => PackageDef,
  plural: string,
): string {
  const versions = [...graph.apiVersions, ...graph.storageVersions].sort(compareVersions).map((version) => {
    const pkg = lookup(version);
    const resource = pkg.resources.find((r) => r.kind === graph.kind);
    if (!resource) throw new Error(`${version} has no ${graph.kind}`);
    return {
      additionalPrinterColumns: printerColumns,
      name: version,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          ...(isCurrentPrefix(pkg.prefix) && !pkg.storage && resource.description
            ? {
                description: `${resource.description}\nARM type: ${resource.armType}, API version ${resource.armApiVersion}`,
              }
            : {}),
          properties: {
            apiVersion: { type: 'string' },
            kind: { type: 'string' },
            metadata: { type: 'object' },
            spec: objectSchema(pkg, resource.specType),
            status: objectSchema(pkg, resource.statusType),
          },
        },
      },
      served: true,
      storage: version === graph.hub,
      subresources: { status: {} },
    };
  });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      labels: { 'app.kubernetes.io/name': 'azure-service-operator' },
      name: `${plural}.${groupName}`,
    },
    spec: {
      conversion: {
        strategy: 'Webhook',
        webhook: { clientConfig: { url: placeholderWebhookUrl }, conversionReviewVersions: ['v1'] },
      },
      group: groupName,
      names: {
        // The operator's category drops the dots a group may have (`network.frontdoor` -> `networkfrontdoor`).
        categories: ['azure', graph.group.replaceAll('.', '')],
        kind: graph.kind,
        listKind: `${graph.kind}List`,
        plural,
        singular: graph.kind.toLowerCase(),
      },
      scope: 'Namespaced',
      versions,
    },
  };
  return `${hashHeader()}---\n${stringify(crd, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

/**
 * The CRD of a kind the operator manages without ARM: its schemas as imported, with the printer columns,
 * label and status subresource every ASO CRD has. One version, stored as served, so no conversion stanza.
 */
export function emitKubernetesKindCrd(schema: KubernetesKindSchema): string {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      labels: { 'app.kubernetes.io/name': 'azure-service-operator' },
      name: `${schema.names.plural}.${schema.group}`,
    },
    spec: {
      group: schema.group,
      names: schema.names,
      scope: schema.scope,
      versions: schema.versions.map((version) => ({
        additionalPrinterColumns: printerColumns,
        name: version.name,
        schema: { openAPIV3Schema: version.openAPIV3Schema },
        served: version.served,
        storage: version.storage,
        subresources: { status: {} },
      })),
    },
  };
  return `${hashHeader()}---\n${stringify(crd, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}
