import { describe, expect, it } from 'vitest';
import { itemsAfter, listAll, listPages, storageOrderKey } from '../../../src/lib/kube/list.ts';
import { applyObject, waitForEstablished } from '../../control-plane/apply.ts';
import { adminClient, freshNamespace, uniqueSuffix } from '../../fixtures/cluster.ts';

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

  it('keeps storage order, so a restarted list skips exactly what it already yielded', () => {
    const item = (namespace: string, name: string) => ({ metadata: { namespace, name } });
    // etcd orders keys bytewise: namespace "a-b" sorts before "a" followed by "/".
    const page = [item('a-b', 'y'), item('a', 'x'), item('b', 'a'), item('b', 'z')];
    expect(itemsAfter(page, 'a/x').map(storageOrderKey)).toEqual(['b/a', 'b/z']);
    expect(itemsAfter(page, undefined)).toHaveLength(4);
    expect([...page].map(storageOrderKey).sort()).toEqual(page.map(storageOrderKey));
  });
});
