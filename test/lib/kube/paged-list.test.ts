import { describe, expect, it } from 'vitest';
import { listAll, listPages } from '../../../src/lib/kube/list.ts';
import { applyObject, waitForEstablished } from '../../control-plane/apply.ts';
import { adminClient, freshNamespace, testPlane, uniqueSuffix } from '../../fixtures/cluster.ts';

async function widgetCrd(): Promise<{ group: string; plural: string }> {
  const group = `g${uniqueSuffix()}.test.kubectl-aso.io`;
  const plural = 'widgets';
  const admin = await adminClient();
  const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  await applyObject(admin, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        { name: 'v1alpha1', served: true, storage: false, schema },
        { name: 'v1', served: true, storage: true, schema },
      ],
    },
  });
  await waitForEstablished(admin, `${plural}.${group}`);
  return { group, plural };
}

async function createWidgets(
  group: string,
  plural: string,
  namespaces: string[],
  perNamespace: number,
): Promise<string[]> {
  const admin = await adminClient();
  const names: string[] = [];
  for (const namespace of namespaces) {
    for (let index = 0; index < perNamespace; index++) {
      const version = index % 2 === 0 ? 'v1' : 'v1alpha1';
      await applyObject(
        admin,
        {
          apiVersion: `${group}/${version}`,
          kind: 'Widget',
          metadata: { name: `w${index}`, namespace },
          spec: { index },
        },
        { group, version, plural, namespaced: true },
      );
      names.push(`${namespace}/w${index}`);
    }
  }
  return names;
}

async function etcdRevision(): Promise<number> {
  const response = await fetch(`${testPlane().etcdUrl}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: 'AA==', count_only: true }),
  });
  const body = (await response.json()) as { header: { revision: string } };
  return Number(body.header.revision);
}

describe('paged listing on the real control plane', () => {
  it('returns every object of a two-version CRD exactly once when the page is smaller than the count', async () => {
    const { group, plural } = await widgetCrd();
    const namespaces = [
      await freshNamespace('page'),
      await freshNamespace('page'),
      await freshNamespace('page'),
    ];
    const expected = await createWidgets(group, plural, namespaces, 7);
    const pages: number[] = [];
    const seen: string[] = [];
    for await (const page of listPages(await adminClient(), { group, version: 'v1', plural, pageSize: 4 })) {
      pages.push(page.length);
      seen.push(...page.map((item) => `${item.metadata.namespace}/${item.metadata.name}`));
    }
    expect(seen.sort()).toEqual(expected.sort());
    expect(pages.length).toBeGreaterThan(1);
    expect(Math.max(...pages)).toBeLessThanOrEqual(4);
  });

  it('lists one namespace only when asked', async () => {
    const { group, plural } = await widgetCrd();
    const [first, second] = [await freshNamespace('one'), await freshNamespace('one')];
    await createWidgets(group, plural, [first, second], 3);
    const items = await listAll(await adminClient(), {
      group,
      version: 'v1alpha1',
      plural,
      namespace: second,
      pageSize: 2,
    });
    expect(items.map((item) => item.metadata.namespace)).toEqual([second, second, second]);
  });

  it('finishes a list whose continue token expired (410) without losing or repeating an object', async () => {
    const { group, plural } = await widgetCrd();
    const namespace = await freshNamespace('expire');
    const expected = await createWidgets(group, plural, [namespace], 9);
    const admin = await adminClient();
    const pages = listPages(admin, { group, version: 'v1', plural, pageSize: 3 });
    const seen: string[] = [];
    const first = await pages.next();
    seen.push(
      ...(first.done ? [] : first.value).map((item) => `${item.metadata.namespace}/${item.metadata.name}`),
    );
    // Writing and then compacting etcd past the first page's revision makes its continue token expire.
    await applyObject(admin, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bump', namespace } });
    const revision = await etcdRevision();
    const compacted = await fetch(`${testPlane().etcdUrl}/v3/kv/compaction`, {
      method: 'POST',
      body: JSON.stringify({ revision, physical: true }),
    });
    expect(compacted.status).toBe(200);
    for await (const page of pages)
      seen.push(...page.map((item) => `${item.metadata.namespace}/${item.metadata.name}`));
    expect(seen.sort()).toEqual(expected.sort());
  });
});
