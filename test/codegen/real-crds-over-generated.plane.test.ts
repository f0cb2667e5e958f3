import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../src/lib/kube/list.ts';
import { resourcePath } from '../../src/lib/kube/paths.ts';
import { type Crd, crdType, readCrd } from '../../src/lib/migrate/crds.ts';
import { applyObject, waitForEstablished } from '../control-plane/apply.ts';
import { generatedCrds } from '../control-plane/generated-crds.ts';
import { alwaysGroups, groupsPickedBy } from '../differential/kinds-under-test.ts';
import { adminClient, freshNamespace, uniqueSuffix } from '../fixtures/cluster.ts';
import { operatorApiFolder } from '../fixtures/operator-conversion.ts';
import { sharedData } from '../fixtures/shared-data.ts';

/**
 * The generated CRDs must be replaceable by the operator's own on a live cluster: each generated CRD, with an
 * object stored at its storage version, is replaced in place by the real v2.20.0 CRD of the same name, as
 * installing the operator over them would. The API server refuses that (`status.storedVersions[0]: Invalid
 * value: ...: missing from spec.versions`) when a generated storage version is one the operator lacks, and
 * prunes what the real storage schema lacks, so the object must read back unchanged. Each CRD goes under a
 * group of the test's own, since the suite's plane serves the generated CRDs of the real groups.
 */
const neededBy = 'test/codegen/real-crds-over-generated.plane.test.ts';
const realCrds = sharedData('real-aso-crds/v2.20.0', neededBy);
const samples = sharedData('aso-samples/v2.20.0', neededBy);

/** Generated CRDs the operator has under no such name, each with why; the list may only shrink. */
const withoutRealCounterpart: Record<string, string> = {};

type CrdDocument = KubeObject & Crd;

/** How many groups beyond the core's first ones a run replaces, picked by a printed seed. */
const sampledGroups = 6;

/**
 * The generated CRDs a run replaces: those of the groups the first 13 kinds belong to, and every CRD of a few
 * other groups picked by `ASO_CRD_SEED` (or the clock), printed so a failure replays; `ASO_CRD_ALL=1` takes
 * every CRD. Each replacement waits on the API server for seconds, and all 275 took five minutes of CI.
 */
function crdsUnderTest(crds: readonly CrdDocument[], env: NodeJS.ProcessEnv = process.env): CrdDocument[] {
  if (env.ASO_CRD_ALL === '1') {
    process.stdout.write(`real CRDs over generated: every CRD (${crds.length}), ASO_CRD_ALL=1\n`);
    return [...crds];
  }
  const seed = env.ASO_CRD_SEED !== undefined ? Number(env.ASO_CRD_SEED) : Date.now() % 2 ** 31;
  const others = [...new Set(crds.map((crd) => crd.spec.group).filter((group) => !alwaysGroups.has(group)))];
  const picked = new Set(groupsPickedBy(seed, others, sampledGroups));
  process.stdout.write(
    `real CRDs over generated: seed ${seed} picks ${[...picked].join(', ')} beside ${[...alwaysGroups].sort().join(', ')} (ASO_CRD_SEED=${seed} repeats it; ASO_CRD_ALL=1 takes all ${crds.length})\n`,
  );
  return crds.filter((crd) => alwaysGroups.has(crd.spec.group) || picked.has(crd.spec.group));
}

function underGroup(crd: KubeObject, group: string): CrdDocument {
  const copy = structuredClone(crd) as CrdDocument;
  copy.metadata = { name: `${copy.spec.names.plural}.${group}` };
  copy.spec.group = group;
  // The real CRDs ship without a conversion (the operator sets its webhook when it installs them); the test
  // writes and reads at the storage version only, so neither needs one.
  delete (copy.spec as { conversion?: unknown }).conversion;
  delete (copy as { status?: unknown }).status;
  return copy;
}

/** The spec of the operator's sample of `kind` at the API version `storage` is the storage variant of, if any. */
function sampleSpec(realGroup: string, kind: string, storage: string): Record<string, unknown> | undefined {
  const version = storage.replace(/storage$/, '');
  const groupDir = join(samples.path, operatorApiFolder(realGroup));
  if (!existsSync(groupDir)) return undefined;
  // Samples sit under a folder per version (`v1api20230101/`) or per prefix (`v1api/`), depending on the group.
  const name = `${version}_${kind.toLowerCase()}.yaml`;
  const path = readdirSync(groupDir, { recursive: true, encoding: 'utf8' }).find(
    (entry) => entry.split('/').at(-1) === name,
  );
  if (!path) return undefined;
  for (const document of parseAllDocuments(readFileSync(join(groupDir, path), 'utf8'))) {
    const object = document.toJS() as KubeObject | null;
    if (object?.kind === kind) return (object as { spec?: Record<string, unknown> }).spec;
  }
  return undefined;
}

describe.skipIf(!realCrds.present || !samples.present)(
  "the real v2.20.0 CRDs apply over the generated ones (the operator installed over kubectl-aso's CRDs)",
  () => {
    const generated = generatedCrds() as CrdDocument[];

    it('finds a real CRD for every generated one but those listed', () => {
      const missing = generated
        .map((crd) => crd.metadata.name)
        .filter((name) => !existsSync(realCrdFile(name)))
        .sort();
      expect(missing).toEqual(Object.keys(withoutRealCounterpart).sort());
    });

    // Concurrently, a few at a time: each test mostly waits on the API server (about 2.5 s each, dozens of
    // them), and each deletes its CRD after, so that later tests' discovery does not list hundreds of groups.
    for (const crd of crdsUnderTest(generated.filter((c) => !(c.metadata.name in withoutRealCounterpart)))) {
      it.concurrent(`${crd.metadata.name}: replaced by the real CRD with an object stored at ${storageOf(crd)}`, async ({
        expect,
      }) => {
        const admin = await adminClient();
        const group = `r${uniqueSuffix()}.azure.com`;
        const before = underGroup(crd, group);
        await applyObject(admin, before);
        try {
          await waitForEstablished(admin, before.metadata.name, 180_000);
          const namespace = await freshNamespace('real-over-generated');
          const storage = storageOf(crd);
          const type = { group, version: storage, plural: crd.spec.names.plural };
          const scoped = crd.spec.scope === 'Namespaced' ? namespace : undefined;
          const created = await admin.request<KubeObject>({
            method: 'POST',
            path: resourcePath(type, scoped),
            body: {
              apiVersion: `${group}/${storage}`,
              kind: crd.spec.names.kind,
              metadata: { name: 'stored', namespace: scoped },
              spec: sampleSpec(crd.spec.group, crd.spec.names.kind, storage) ?? {},
            },
            subject: { verb: 'create', resource: before.metadata.name },
          });

          const real = underGroup(
            parseAllDocuments(readFileSync(realCrdFile(crd.metadata.name), 'utf8'))[0]?.toJS() as KubeObject,
            group,
          );
          const current = await readCrd(admin, before.metadata.name);
          await admin.request({
            method: 'PUT',
            path: resourcePath(crdType, undefined, real.metadata.name),
            body: {
              ...real,
              metadata: { ...real.metadata, resourceVersion: current.metadata.resourceVersion },
            },
            subject: { verb: 'update', resource: 'customresourcedefinitions' },
          });
          const after = await readCrd(admin, real.metadata.name);
          expect(after.status?.storedVersions).toEqual([storage]);
          expect(after.spec.versions.find((version) => version.storage)?.name).toBe(storage);
          const read = await admin.request<KubeObject>({
            path: resourcePath(type, scoped, 'stored'),
            subject: { verb: 'get', resource: real.metadata.name },
          });
          expect(read.spec).toEqual(created.spec);
        } finally {
          await admin.request({
            method: 'DELETE',
            path: resourcePath(crdType, undefined, before.metadata.name),
            subject: { verb: 'delete', resource: 'customresourcedefinitions' },
          });
        }
      }, 600_000);
    }
  },
);

function realCrdFile(name: string): string {
  const dot = name.indexOf('.');
  return join(realCrds.path, `${name.slice(dot + 1)}_${name.slice(0, dot)}.yaml`);
}

function storageOf(crd: CrdDocument): string {
  return crd.spec.versions.find((version) => version.storage)?.name ?? '';
}
