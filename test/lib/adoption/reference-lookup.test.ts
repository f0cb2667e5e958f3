import { describe, expect, it } from 'vitest';
import { desiredArmOf } from '../../../src/lib/adoption/desired-body.ts';
import { prefetchedResolvers, referenceLookupOf } from '../../../src/lib/adoption/reference-lookup.ts';
import type { ManifestObject } from '../../../src/lib/manifests/read.ts';

const sql = 'sql.azure.com';
const object = (name: string, spec: Record<string, unknown>, namespace = 'ns'): ManifestObject => ({
  apiVersion: `${sql}/v1api20211101`,
  kind: 'ServersDatabase',
  metadata: { name, namespace },
  spec: { owner: { name: 'srv' }, ...spec },
  source: 'file',
});

describe('references by name, without a cluster', () => {
  const orig = object('orig', {});
  const elsewhere = object('orig', {}, 'other');
  const lookup = referenceLookupOf({
    given: [orig, elsewhere],
    predictedIdOf: (o) => `/predicted/${o.metadata.namespace}/${o.metadata.name}`,
    defaultNamespace: 'default',
    client: undefined,
    crds: [],
    plurals: new Map(),
  });

  it('answers with the predicted ID of an object of the same files, in the same namespace only', async () => {
    expect(await lookup.armIdOf({ group: sql, kind: 'ServersDatabase', name: 'orig' }, 'ns')).toBe(
      '/predicted/ns/orig',
    );
    expect(
      await lookup.armIdOf({ group: sql, kind: 'ServersDatabase', name: 'orig' }, 'third'),
    ).toBeUndefined();
  });

  it('needs group and kind, as the operator does, and the kind must match', async () => {
    expect(await lookup.armIdOf({ name: 'orig' }, 'ns')).toBeUndefined();
    expect(await lookup.armIdOf({ group: sql, kind: 'Server', name: 'orig' }, 'ns')).toBeUndefined();
  });

  it('builds a body with what it found and lists what it did not', async () => {
    const copy = object('copy', {
      location: 'westus',
      sourceDatabaseReference: { group: sql, kind: 'ServersDatabase', name: 'orig' },
      elasticPoolReference: { group: sql, kind: 'ServersElasticPool', name: 'pool' },
    });
    const asked: string[] = [];
    const counting = {
      armIdOf: (r: { name: string }, ns: string) => {
        asked.push(r.name);
        return lookup.armIdOf(r, ns);
      },
      configMapValue: lookup.configMapValue,
    };
    const resolvers = await prefetchedResolvers((r) => desiredArmOf(copy, r), counting, 'ns');
    const desired = await desiredArmOf(copy, resolvers);
    if ('unknown' in desired) throw new Error(desired.unknown);
    expect(desired.body.properties).toEqual({ sourceDatabaseId: '/predicted/ns/orig' });
    expect(desired.unmapped).toEqual(['spec.elasticPoolReference']);
    expect(asked.sort()).toEqual(['orig', 'pool']);
  });
});
