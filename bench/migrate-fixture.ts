// The plane-side setup shared by `bench:migrate` and `bench:chaos`: per-contender CRDs of 4 ASO-like kinds
// (conversion None, so no webhook is measured), objects stored at an alpha storage version before the storage
// flag moves to the hub, and reads of etcd's raw values to check where each object ended.
import type { KubeClient } from '../src/lib/kube/client.ts';
import type { KubeObject } from '../src/lib/kube/list.ts';
import { resourcePath } from '../src/lib/kube/paths.ts';
import { mapConcurrently } from '../src/lib/migrate/pool.ts';
import { applyObject, waitForEstablished } from '../test/control-plane/apply.ts';
import type { Plane } from '../test/control-plane/plane.ts';

/** The storage version the objects are written at, and the hub `migrate --to v1api` moves them to. */
export const alpha = 'v1alpha1api20210601storage';
export const hub = 'v1api20210601storage';
/** The namespaces the objects are spread over (`bench-0` ...). */
export const namespaces = 10;
const kinds = ['ResourceGroup', 'FlexibleServer', 'StorageAccount', 'Vault'];

/** One bench CRD. */
export interface Kind {
  group: string;
  plural: string;
  kind: string;
  name: string;
}

/** The contender's own CRDs (a group per contender, so contenders never touch each other's objects). */
export function kindsOf(contender: string, count = kinds.length): Kind[] {
  const group = `${contender}.benchmigrate.azure.com`;
  return kinds.slice(0, count).map((kind) => {
    const plural = `${kind.toLowerCase()}s`;
    return { group, plural, kind, name: `${plural}.${group}` };
  });
}

async function applyCrd(admin: KubeClient, kind: Kind, storage: string): Promise<void> {
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  await applyObject(admin, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: kind.name },
    spec: {
      group: kind.group,
      scope: 'Namespaced',
      names: {
        plural: kind.plural,
        singular: kind.kind.toLowerCase(),
        kind: kind.kind,
        listKind: `${kind.kind}List`,
      },
      conversion: { strategy: 'None' },
      versions: [alpha, hub].map((name) => ({ name, served: true, storage: name === storage, schema })),
    },
  });
  await waitForEstablished(admin, kind.name);
}

/** The `index`-th object of a kind, as written at the alpha version (its spec is what must survive). */
export function objectOf(kind: Kind, index: number): KubeObject {
  return {
    apiVersion: `${kind.group}/${alpha}`,
    kind: kind.kind,
    metadata: { name: `obj-${String(index).padStart(5, '0')}`, namespace: `bench-${index % namespaces}` },
    spec: {
      owner: { name: 'rg' },
      location: 'westeurope',
      azureName: `resource-${index}`,
      tags: { team: 'bench', index: String(index) },
      description: 'x'.repeat(400),
    },
  };
}

/** Creates the bench namespaces. */
export async function createNamespaces(admin: KubeClient): Promise<void> {
  for (let index = 0; index < namespaces; index++) {
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `bench-${index}` } });
  }
}

/**
 * Creates the contender's CRDs at the alpha storage version and `objects` objects across them, then makes
 * the hub the storage version, waiting until a probe object lands there (one probe per kind, named
 * `obj-9xxxx`).
 */
export async function seed(
  admin: KubeClient,
  plane: Plane,
  contender: string,
  objects: number,
  kindCount = kinds.length,
): Promise<Kind[]> {
  const crds = kindsOf(contender, kindCount);
  for (const kind of crds) await applyCrd(admin, kind, alpha);
  const perKind = Math.ceil(objects / crds.length);
  for (const kind of crds) {
    const indexes = Array.from({ length: perKind }, (_, index) => index);
    await mapConcurrently(indexes, 16, (index) =>
      admin.request({
        method: 'POST',
        path: resourcePath(
          { group: kind.group, version: alpha, plural: kind.plural },
          `bench-${index % namespaces}`,
        ),
        body: objectOf(kind, index),
        subject: { verb: 'create', resource: kind.name },
      }),
    );
  }
  for (const kind of crds) await applyCrd(admin, kind, hub);
  for (const kind of crds) {
    for (let attempt = 0; ; attempt++) {
      const probe = { ...objectOf(kind, 90_000 + attempt), apiVersion: `${kind.group}/${hub}` };
      await admin.request({
        method: 'POST',
        path: resourcePath({ group: kind.group, version: hub, plural: kind.plural }, 'bench-0'),
        body: probe,
        subject: { verb: 'create', resource: kind.name },
      });
      const stored = await etcdValues(plane, kind, `bench-0/${probe.metadata.name}`);
      if (stored[0]?.apiVersion === `${kind.group}/${hub}`) break;
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  return crds;
}

/** The raw values etcd holds for a kind (or one object, given `namespace/name`). */
export async function etcdValues(plane: Plane, kind: Kind, suffix = ''): Promise<KubeObject[]> {
  const prefix = `/registry/${kind.group}/${kind.plural}/${suffix}`;
  const end = suffix ? `${prefix}\0` : `${prefix.slice(0, -1)}0`;
  const answer = await fetch(`${plane.etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({
      key: Buffer.from(prefix).toString('base64'),
      range_end: Buffer.from(end).toString('base64'),
    }),
  });
  const body = (await answer.json()) as { kvs?: Array<{ value: string }> };
  return (body.kvs ?? []).map(
    (kv) => JSON.parse(Buffer.from(kv.value, 'base64').toString('utf8')) as KubeObject,
  );
}

/** True when etcd holds every object of every kind at the hub. */
export async function allAtHub(plane: Plane, crds: Kind[]): Promise<boolean> {
  for (const kind of crds) {
    const stored = await etcdValues(plane, kind);
    if (stored.some((object) => object.apiVersion !== `${kind.group}/${hub}`)) return false;
  }
  return true;
}
