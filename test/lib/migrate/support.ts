import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseJsonStrictly } from '../../../src/lib/json/strict-parse.ts';
import type { KubeClient } from '../../../src/lib/kube/client.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { type Crd, crdType, readCrd } from '../../../src/lib/migrate/crds.ts';
import { applyObject, waitForEstablished } from '../../control-plane/apply.ts';
import { generatedCrds } from '../../control-plane/generated-crds.ts';
import type { Plane } from '../../control-plane/plane.ts';
import { freshNamespace, testPlane, uniqueSuffix } from '../../fixtures/cluster.ts';
import { reviewResponse } from '../../fixtures/conversion-webhook.ts';
import { outwaitGoClients } from '../../fixtures/idle-connections.ts';

/**
 * Migration tests move a CRD's storage flag and rewrite every object of it, which would disturb every
 * other test file using the shared generated CRDs. Each test gets a CRD of its own instead: the generated
 * FlexibleServer CRD under a group no one else uses (`m<hex>.azure.com`, still an ASO group), converted by
 * a webhook that maps that group to the real one around the generated conversions.
 */
export const realGroup = 'dbforpostgresql.azure.com';
export const plural = 'flexibleservers';
export const alphaStorage = 'v1alpha1api20210601storage';
export const alphaVersion = 'v1alpha1api20210601';
export const hubStorage = 'v20250801storage';

/** The webhook the test CRDs use; `refuse` makes it fail every conversion from or to a version. */
export interface RenamingWebhook {
  url: string;
  caBundle: string;
  refuse: Set<string>;
  reviews: number;
  close: () => Promise<void>;
}

/** The groups {@link createTestCrd} makes: `m<hex>.azure.com`. */
const testGroup = /^m[0-9a-f]+\.azure\.com$/;

function renameGroup(value: unknown, from: string, to: string): unknown {
  const text = JSON.stringify(value);
  return JSON.parse(text.replaceAll(`"${from}/`, `"${to}/`));
}

/**
 * Serves ConversionReview for the test groups with the generated conversions (the same `reviewResponse`
 * the plane's webhook uses), reusing the plane webhook's serving certificate.
 */
export async function startRenamingWebhook(plane: Plane): Promise<RenamingWebhook> {
  const dir = join(plane.stateDir, 'webhook');
  const refuse = new Set<string>();
  const state = { reviews: 0 };
  const server = https.createServer(
    { key: readFileSync(join(dir, 'tls.key')), cert: readFileSync(join(dir, 'tls.crt')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        state.reviews++;
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          request: { uid: string; desiredAPIVersion: string; objects: Array<{ apiVersion: string }> };
        };
        const [group] = review.request.desiredAPIVersion.split('/') as [string];
        // The test groups stand for the real one; a real group (on a test's own plane) is served as itself.
        const servedAs = testGroup.test(group) ? realGroup : group;
        const versions = [
          review.request.desiredAPIVersion,
          ...review.request.objects.map((o) => o.apiVersion),
        ];
        const refused = versions.find((version) => refuse.has(version.split('/')[1] ?? ''));
        const answer = refused
          ? {
              apiVersion: 'apiextensions.k8s.io/v1',
              kind: 'ConversionReview',
              response: {
                uid: review.request.uid,
                convertedObjects: [],
                result: { status: 'Failure', message: `this webhook no longer converts ${refused}` },
              },
            }
          : renameGroup(reviewResponse(renameGroup(review, group, servedAs) as never), servedAs, group);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    },
  );
  outwaitGoClients(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/convert`,
    caBundle: readFileSync(join(dir, 'ca.crt')).toString('base64'),
    refuse,
    get reviews() {
      return state.reviews;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The API server keeps its connections to a webhook open; close would otherwise wait them out.
        server.closeAllConnections();
      }),
  };
}

/** A test CRD: its group, name and type. */
export interface TestCrd {
  group: string;
  name: string;
  type: { group: string; version: string; plural: string };
}

/** Creates a FlexibleServer CRD under a fresh group, stored at `storage`, converted by `webhook`. */
export async function createTestCrd(
  admin: KubeClient,
  webhook: RenamingWebhook,
  storage: string,
): Promise<TestCrd> {
  const generated = generatedCrds().find((crd) => crd.metadata.name === `${plural}.${realGroup}`);
  if (!generated) throw new Error('the generated FlexibleServer CRD is missing');
  const group = `m${uniqueSuffix()}.azure.com`;
  const crd = structuredClone(generated) as unknown as Crd & KubeObject;
  crd.metadata = { name: `${plural}.${group}` };
  crd.spec.group = group;
  for (const version of crd.spec.versions) version.storage = version.name === storage;
  (crd.spec as { conversion?: unknown }).conversion = {
    strategy: 'Webhook',
    webhook: {
      clientConfig: { url: webhook.url, caBundle: webhook.caBundle },
      conversionReviewVersions: ['v1'],
    },
  };
  await applyObject(admin, crd as KubeObject);
  await waitForEstablished(admin, crd.metadata.name);
  return { group, name: crd.metadata.name, type: { group, version: alphaVersion, plural } };
}

/** Moves the CRD's storage flag to `version`, as an operator install (or upgrade) would. */
export async function moveStorage(admin: KubeClient, name: string, version: string): Promise<void> {
  const crd = await readCrd(admin, name);
  for (const entry of crd.spec.versions) entry.storage = entry.name === version;
  await admin.request({
    method: 'PUT',
    path: resourcePath(crdType, undefined, name),
    body: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', ...crd },
    subject: { verb: 'update', resource: 'customresourcedefinitions' },
  });
}

/** A FlexibleServer at the alpha version, with values that every later version keeps somewhere. */
export function alphaServer(group: string, namespace: string, name: string, index: number): KubeObject {
  return {
    apiVersion: `${group}/${alphaVersion}`,
    kind: 'FlexibleServer',
    metadata: { name, namespace },
    spec: {
      owner: { name: 'rg' },
      location: 'westeurope',
      version: '13',
      storage: { storageSizeGB: 32 + index },
      network: {
        privateDnsZoneArmResourceReference: {
          armId: `/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/privateDnsZones/z${index}`,
        },
      },
    },
  };
}

/** Creates an object of the test CRD at the version its apiVersion names. */
export async function createObject(admin: KubeClient, crd: TestCrd, object: KubeObject): Promise<KubeObject> {
  const version = object.apiVersion?.split('/')[1] ?? alphaVersion;
  return admin.request<KubeObject>({
    method: 'POST',
    path: resourcePath({ ...crd.type, version }, object.metadata.namespace),
    body: object,
    subject: { verb: 'create', resource: crd.name },
  });
}

/** One key of etcd and its value, parsed (custom resources are stored as JSON). */
export interface StoredObject {
  key: string;
  apiVersion: string;
  value: KubeObject;
}

/** Every object of the test CRD as etcd holds it: the raw stored value, not the API server's view. */
export async function storedObjects(plane: Plane, crd: TestCrd): Promise<StoredObject[]> {
  const prefix = `/registry/${crd.group}/${crd.type.plural}/`;
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const answer = await fetch(`${plane.etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({
      key: Buffer.from(prefix).toString('base64'),
      range_end: Buffer.from(end).toString('base64'),
    }),
  });
  const body = (await answer.json()) as { kvs?: Array<{ key: string; value: string }> };
  return (body.kvs ?? []).map((kv) => {
    const value = parseJsonStrictly(Buffer.from(kv.value, 'base64').toString('utf8')) as KubeObject;
    return { key: Buffer.from(kv.key, 'base64').toString('utf8'), apiVersion: value.apiVersion ?? '', value };
  });
}

/**
 * Waits until the API server writes new objects of the CRD at `version` (it picks up a CRD change a
 * moment after the update returns), by rewriting a probe object and reading what etcd holds.
 */
export async function waitForStorageInEffect(
  admin: KubeClient,
  plane: Plane,
  crd: TestCrd,
  namespace: string,
  version: string,
  /** A version the CRD serves, to read and rewrite the probe at (the alpha one by default). */
  servedVersion = alphaVersion,
): Promise<void> {
  const deadline = Date.now() + 20_000;
  const name = 'storage-probe';
  for (;;) {
    const path = resourcePath({ ...crd.type, version: servedVersion }, namespace, name);
    let current: KubeObject | undefined;
    try {
      current = await admin.request<KubeObject>({ path, subject: { verb: 'get', resource: crd.name } });
    } catch {
      current = await createObject(admin, crd, alphaServer(crd.group, namespace, name, 0));
    }
    const labels = { ...(current.metadata.labels ?? {}), probe: String(Date.now()) };
    await admin.request({
      method: 'PUT',
      path,
      body: { ...current, metadata: { ...current.metadata, labels } },
      subject: { verb: 'update', resource: crd.name },
    });
    const stored = (await storedObjects(plane, crd)).find((object) =>
      object.key.endsWith(`/${namespace}/${name}`),
    );
    if (stored?.apiVersion === `${crd.group}/${version}`) return;
    if (Date.now() > deadline) throw new Error(`${crd.name} is still not stored at ${version}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Reads the CRD's `status.storedVersions`. */
export async function storedVersions(admin: KubeClient, crd: TestCrd): Promise<string[]> {
  return (await readCrd(admin, crd.name)).status?.storedVersions ?? [];
}

/**
 * A CRD whose objects were written while an alpha storage version was the storage version, after which
 * the hub became the storage version again (as an operator upgrade does): `count` objects stored at the
 * alpha storage version, plus the probe that proves the hub is in effect (stored at the hub).
 */
export async function crdStoredAtAlpha(
  admin: KubeClient,
  webhook: RenamingWebhook,
  count: number,
): Promise<{ crd: TestCrd; namespace: string; originals: KubeObject[] }> {
  const crd = await createTestCrd(admin, webhook, alphaStorage);
  const namespace = await freshNamespace('migrate');
  const originals: KubeObject[] = [];
  for (let index = 0; index < count; index++) {
    originals.push(alphaServer(crd.group, namespace, `server-${String(index).padStart(3, '0')}`, index));
  }
  for (let first = 0; first < count; first += 10) {
    await Promise.all(originals.slice(first, first + 10).map((object) => createObject(admin, crd, object)));
  }
  await moveStorage(admin, crd.name, hubStorage);
  await waitForStorageInEffect(admin, testPlane(), crd, namespace, hubStorage);
  return { crd, namespace, originals };
}
