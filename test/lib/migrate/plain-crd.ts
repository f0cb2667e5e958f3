import type { KubeClient } from '../../../src/lib/kube/client.ts';
import type { KubeObject } from '../../../src/lib/kube/list.ts';
import { resourcePath } from '../../../src/lib/kube/paths.ts';
import { applyObject, waitForEstablished } from '../../control-plane/apply.ts';
import type { Plane } from '../../control-plane/plane.ts';

/**
 * A CRD with an alpha and a hub storage version and no conversion webhook (`conversion: None`), for tests
 * on a plane of their own (which has no webhook): what they test is the rewrite, not the conversion.
 */
export const alpha = 'v1alpha1api20210601storage';
export const hub = 'v1api20210601storage';

/** Where a plain test CRD lives. */
export interface PlainCrd {
  group: string;
  plural: string;
  name: string;
}

/** Creates (or moves the storage flag of) the plain CRD, stored at `storage`. */
export async function applyPlainCrd(admin: KubeClient, crd: PlainCrd, storage: string): Promise<void> {
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  await applyObject(admin, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crd.name },
    spec: {
      group: crd.group,
      scope: 'Namespaced',
      names: { plural: crd.plural, singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      conversion: { strategy: 'None' },
      versions: [alpha, hub].map((name) => ({ name, served: true, storage: name === storage, schema })),
    },
  });
  await waitForEstablished(admin, crd.name);
}

/** Every object of the CRD as etcd holds it. */
export async function storedPlain(plane: Plane, crd: PlainCrd): Promise<KubeObject[]> {
  const prefix = `/registry/${crd.group}/${crd.plural}/`;
  const answer = await fetch(`${plane.etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({
      key: Buffer.from(prefix).toString('base64'),
      range_end: Buffer.from(`${prefix.slice(0, -1)}0`).toString('base64'),
    }),
  });
  const body = (await answer.json()) as { kvs?: Array<{ value: string }> };
  return (body.kvs ?? []).map(
    (kv) => JSON.parse(Buffer.from(kv.value, 'base64').toString('utf8')) as KubeObject,
  );
}

/**
 * `count` objects written while the alpha version was the storage version, then the hub made the storage
 * version and proven in effect (a probe object lands there). Returns how many objects there are in all.
 */
export async function plainObjectsAtAlpha(
  admin: KubeClient,
  plane: Plane,
  crd: PlainCrd,
  namespace: string,
  count: number,
): Promise<number> {
  await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await applyPlainCrd(admin, crd, alpha);
  for (let index = 0; index < count; index++) {
    await admin.request({
      method: 'POST',
      path: resourcePath({ group: crd.group, version: alpha, plural: crd.plural }, namespace),
      body: {
        apiVersion: `${crd.group}/${alpha}`,
        kind: 'Widget',
        metadata: { name: `w${index}` },
        spec: { index },
      },
      subject: { verb: 'create', resource: crd.plural },
    });
  }
  await applyPlainCrd(admin, crd, hub);
  for (let attempt = 0; ; attempt++) {
    const name = `probe${attempt}`;
    await admin.request({
      method: 'POST',
      path: resourcePath({ group: crd.group, version: hub, plural: crd.plural }, namespace),
      body: { apiVersion: `${crd.group}/${hub}`, kind: 'Widget', metadata: { name } },
      subject: { verb: 'create', resource: crd.plural },
    });
    const probe = (await storedPlain(plane, crd)).find((object) => object.metadata.name === name);
    if (probe?.apiVersion === `${crd.group}/${hub}`) break;
    await new Promise((done) => setTimeout(done, 200));
  }
  return (await storedPlain(plane, crd)).length;
}
