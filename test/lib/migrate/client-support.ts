import type { KubeClient } from '../../../src/lib/kube/client.ts';
import { ApiError } from '../../../src/lib/kube/errors.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { type ResourceType, resourcePath } from '../../../src/lib/kube/paths.ts';
import { type Crd, crdType, readCrd } from '../../../src/lib/migrate/crds.ts';
import { applyObject, waitForEstablished } from '../../control-plane/apply.ts';
import { generatedCrds } from '../../control-plane/generated-crds.ts';
import type { Plane } from '../../control-plane/plane.ts';
import {
  moveStorage,
  type RenamingWebhook,
  type StoredObject,
  storedObjects,
  type TestCrd,
} from './support.ts';

/**
 * Client-side conversion works only for the kinds the catalog has, under their real groups, so its tests
 * run on a plane of their own (they move the storage flags and conversions of the real CRDs). A kind's
 * generated CRD is pointed at a test webhook (the generated conversions, which a test can stop or make
 * refuse a version), objects are written while an old storage version is the storage version, and the
 * hub is then made the storage version again, as an operator upgrade does.
 */
export interface OldStored {
  name: string;
  group: string;
  plural: string;
  kind: string;
  namespace: string;
  originals: KubeObject[];
  /** Objects written besides the originals, to prove each storage flag in effect. */
  extra: number;
  /** The conversion the CRD was given: what must be there again after a client-side run. */
  conversion: unknown;
  asTestCrd: TestCrd;
}

/** A CRD's `spec.conversion` that calls `webhook`. */
function conversionTo(webhook: RenamingWebhook): unknown {
  return {
    strategy: 'Webhook',
    webhook: {
      clientConfig: { url: webhook.url, caBundle: webhook.caBundle },
      conversionReviewVersions: ['v1'],
    },
  };
}

/** Points a CRD's conversion at `webhook` (the storage flag and everything else unchanged). */
export async function pointAt(admin: KubeClient, name: string, webhook: RenamingWebhook): Promise<unknown> {
  const crd = (await readCrd(admin, name)) as unknown as { spec: { conversion?: unknown } };
  crd.spec.conversion = conversionTo(webhook);
  await admin.request({
    method: 'PUT',
    path: resourcePath(crdType, undefined, name),
    body: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', ...crd },
    subject: { verb: 'update', resource: 'customresourcedefinitions' },
  });
  return crd.spec.conversion;
}

/** Creates an object at the version its apiVersion names. */
export function create(admin: KubeClient, plural: string, object: KubeObject): Promise<KubeObject> {
  const [group, version] = (object.apiVersion ?? '').split('/') as [string, string];
  return admin.request<KubeObject>({
    method: 'POST',
    path: resourcePath({ group, version, plural }, object.metadata.namespace),
    body: object,
    subject: { verb: 'create', resource: plural },
  });
}

/**
 * The generated CRD `plural.group`, converted by `webhook`, with `make(namespace, i)` objects stored at
 * `oldStorage`, then `hub` made the storage version and proven in effect (a probe object lands there).
 */
export async function storedAtOld(
  plane: Plane,
  admin: KubeClient,
  webhook: RenamingWebhook,
  where: { group: string; plural: string; oldStorage: string; hub: string; namespace: string },
  make: (namespace: string, index: number) => KubeObject,
  count: number,
): Promise<OldStored> {
  const name = `${where.plural}.${where.group}`;
  const generated = generatedCrds().find((crd) => crd.metadata.name === name);
  if (!generated) throw new Error(`no generated CRD ${name}`);
  const crd = structuredClone(generated) as unknown as Crd & KubeObject;
  crd.metadata = { name };
  for (const version of crd.spec.versions) version.storage = version.name === where.oldStorage;
  const conversion = conversionTo(webhook);
  (crd.spec as { conversion?: unknown }).conversion = conversion;
  await applyObject(admin, crd as KubeObject);
  await waitForEstablished(admin, name);
  await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: where.namespace } });
  const asTestCrd: TestCrd = {
    group: where.group,
    name,
    type: { group: where.group, version: where.hub, plural: where.plural },
  };
  // The API server applies a CRD change a moment after the update returns: write until one lands at the old version.
  const warmups = await untilStoredAt(plane, asTestCrd, where.oldStorage, (attempt) =>
    create(admin, where.plural, {
      ...make(where.namespace, 0),
      metadata: { name: `a-warmup-${attempt}`, namespace: where.namespace },
    }),
  );
  const originals: KubeObject[] = [];
  for (let index = 0; index < count; index++) {
    const object = make(where.namespace, index);
    originals.push(object);
    await create(admin, where.plural, object);
  }
  await moveStorage(admin, name, where.hub);
  const probes = await untilStoredAt(plane, asTestCrd, where.hub, (attempt) =>
    create(admin, where.plural, {
      ...make(where.namespace, 0),
      metadata: { name: `storage-probe-${attempt}`, namespace: where.namespace },
    }),
  );
  await untilWatchCachesReady(
    admin,
    crd.spec.versions.map((version) => ({ group: where.group, version: version.name, plural: where.plural })),
  );
  return {
    name,
    group: where.group,
    plural: where.plural,
    kind: crd.spec.names.kind,
    namespace: where.namespace,
    originals,
    extra: warmups + probes,
    conversion,
    asTestCrd,
  };
}

/**
 * Waits until the API server's watch cache of every version holds the objects, while the webhook is still
 * up. Each version of a CRD has a cache of its own, filled in the background after a CRD change by reading
 * every object converted to that version; a test that stops the webhook before then leaves a cache that
 * can never fill, and lists that only etcd (and so the webhook) can answer. A watch from a given
 * resourceVersion is refused with 429 until that version's cache is filled, so one that opens proves it.
 */
async function untilWatchCachesReady(admin: KubeClient, types: ResourceType[]): Promise<void> {
  for (const type of types) {
    const subject = { verb: 'watch', resource: type.plural };
    const list = await admin.request<{ metadata?: { resourceVersion?: string } }>({
      path: resourcePath(type),
      query: { limit: 1 },
      subject: { verb: 'list', resource: type.plural },
    });
    for (let attempt = 0; ; attempt++) {
      try {
        const watch = await admin.stream({
          path: resourcePath(type),
          query: { watch: true, resourceVersion: list.metadata?.resourceVersion, timeoutSeconds: 1 },
          subject,
        });
        watch.destroy();
        break;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 429) || attempt >= 100) throw error;
        await new Promise((done) => setTimeout(done, 200));
      }
    }
  }
}

/** Writes objects with `write(attempt)` until one is stored at `version`; returns how many were written. */
async function untilStoredAt(
  plane: Plane,
  crd: TestCrd,
  version: string,
  write: (attempt: number) => Promise<KubeObject>,
): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    let written: KubeObject;
    try {
      written = await write(attempt);
    } catch (error) {
      // The API server applies a CRD change a moment after the update returns: until then it may still call
      // the webhook of the test before, which is closed. That is "not yet", not a failure.
      if (!(error instanceof ApiError && error.status === 500 && /conversion webhook/.test(error.message)))
        throw error;
      await new Promise((done) => setTimeout(done, 200));
      continue;
    }
    const stored = (await storedObjects(plane, crd)).find((object) =>
      object.key.endsWith(`/${written.metadata.name}`),
    );
    if (stored?.apiVersion === `${crd.group}/${version}`) return attempt + 1;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${crd.name} is still not stored at ${version}`);
}

/** The stored objects of a CRD by name (warm-up and probe objects aside). */
export async function storedByName(plane: Plane, crd: TestCrd): Promise<Map<string, StoredObject>> {
  return new Map(
    (await storedObjects(plane, crd))
      .filter((object) => !/\/(a-warmup|storage-probe)-\d+$/.test(object.key))
      .map((object) => [object.value.metadata.name, object]),
  );
}
