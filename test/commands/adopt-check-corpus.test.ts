import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { armIdPattern } from '../../src/lib/adoption/arm-uri.ts';
import { type CrdLike, crdArmIndexOf } from '../../src/lib/adoption/kind-arm.ts';
import type { AdoptReport } from '../../src/lib/adoption/report.ts';
import { Conflict } from '../../src/lib/kube/errors.ts';
import { readManifests } from '../../src/lib/manifests/read.ts';
import { applyObject, waitForEstablished } from '../control-plane/apply.ts';
import { type ArmEmulator, startArmEmulator } from '../fixtures/arm-emulator/index.ts';
import { runCli } from '../fixtures/cli.ts';
import { adminClient, auditEvents, testPlane } from '../fixtures/cluster.ts';
import { sharedData } from '../fixtures/shared-data.ts';

// The real corpus: ASO v2.20.0's 910 samples checked by the built plugin against the real control plane
// holding the real v2.20.0 CRDs of their kinds, and an ARM emulator holding only `aso-sample-rg`.

const crdData = sharedData('real-aso-crds/v2.20.0', 'adopt-check-corpus.test.ts');
const samples = sharedData('aso-samples/v2.20.0', 'adopt-check-corpus.test.ts');
const sub = '00000000-0000-4000-8000-0000000a5000';
const sampleRgId = `/subscriptions/${sub}/resourceGroups/aso-sample-rg`;

interface RealCrd extends CrdLike {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  spec: CrdLike['spec'] & { conversion?: unknown; [key: string]: unknown };
}

/**
 * A real CRD as the test applies it. Two changes, neither touching what adopt-check reads (group, names,
 * versions, each version's top-level description with its `ARM URI`): the conversion webhook points at
 * the operator's Service, which this plane has not, so conversion is None; and the descriptions nested
 * in the schemas (most of the 28 MB) are dropped, so the largest CRDs fit etcd's request limit and the
 * API server on this 2-core machine builds 262 schemas in reasonable time.
 */
function asApplied(crd: RealCrd): RealCrd {
  const strip = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => strip(v, false));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'description' && typeof inner === 'string' && !top) continue;
      out[key] = strip(inner, false);
    }
    return out;
  };
  const versions = crd.spec.versions.map((version) => {
    const schema = version.schema?.openAPIV3Schema;
    if (!schema) return version;
    return { ...version, schema: { openAPIV3Schema: strip(schema, true) as { description?: string } } };
  });
  return {
    apiVersion: crd.apiVersion,
    kind: crd.kind,
    metadata: { name: crd.metadata.name },
    spec: { ...crd.spec, versions, conversion: { strategy: 'None' } },
  };
}

describe.skipIf(!crdData.present || !samples.present)('adopt-check over the 910 real v2.20.0 samples', () => {
  let arm: ArmEmulator;
  const crds: RealCrd[] = [];
  let preexisting = 0;
  let report: AdoptReport;
  let code: number;
  let stderr: string;
  let writesDuringRun: number;
  const set = samples.present ? readManifests({ files: [samples.path], recursive: true }) : undefined;

  beforeAll(async () => {
    const started = Date.now();
    const phase = (what: string) => console.log(`${what}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const kinds = new Set(set?.objects.map((o) => `${o.apiVersion.split('/')[0]}/${o.kind}`));
    for (const file of readdirSync(crdData.path).filter((f) => f.endsWith('.yaml'))) {
      // Only the groups the samples use are parsed (the YAML is 44 MB).
      const group = file.split('_')[0] ?? '';
      if (![...kinds].some((k) => k.startsWith(`${group}/`))) continue;
      const crd = parse(readFileSync(path.join(crdData.path, file), 'utf8')) as RealCrd;
      if (kinds.has(`${crd.spec.group}/${crd.spec.names.kind}`)) crds.push(crd);
    }
    phase(`parsed ${crds.length} CRDs`);
    const admin = await adminClient();
    const created: string[] = [];
    for (const crd of crds) {
      try {
        // Create only: a CRD the plane already has (this project's generated ones, with their conversion
        // webhook) stays as it is, so tests running beside this one are not disturbed.
        await admin.request({
          method: 'POST',
          path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
          body: asApplied(crd),
          subject: { verb: 'create', resource: 'customresourcedefinitions' },
        });
        created.push(crd.metadata.name);
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
        preexisting += 1;
      }
    }
    for (const name of created) await waitForEstablished(admin, name, 120_000);
    phase(`created ${created.length} CRDs, Established`);
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'flux-ns' } });
    arm = await startArmEmulator({
      seed: [{ id: sampleRgId, apiVersion: '2020-06-01', body: { location: 'westus2' } }],
    });
    const ours = () =>
      // The API server's own upkeep (system:apiserver in `default`) is not the plugin.
      auditEvents().filter(
        (e) =>
          !e.user.username.startsWith('system:') &&
          (e.objectRef?.apiGroup?.endsWith('.azure.com') ||
            ['default', 'flux-ns'].includes(e.objectRef?.namespace ?? '')),
      ).length;
    const writesBefore = ours();
    const run = await runCli(
      [
        'adopt-check',
        '-R',
        '-f',
        samples.path,
        '-o',
        'json',
        '--credential',
        'local',
        '--subscription',
        sub,
        '--retry-deadline',
        '30',
      ],
      { ...arm.env, KUBECONFIG: testPlane().kubeconfig },
    );
    writesDuringRun = ours() - writesBefore;
    phase('adopt-check ran');
    code = run.code;
    stderr = run.stderr;
    report = JSON.parse(run.stdout) as AdoptReport;
  }, 900_000);

  afterAll(async () => {
    await arm?.stop();
  });

  it('answers every ASO manifest without a crash, passing over Secrets and ConfigMaps', () => {
    expect(stderr).not.toMatch(/\n\s+at /);
    expect([0, 10]).toContain(code);
    expect(report.items).toHaveLength(set?.objects.length ?? -1);
    expect(report.summary.passedOver).toBe(set?.passedOver.length);
    expect(report.summary.passedOver).toBeGreaterThan(0);
    const reasons = new Map<string, number>();
    for (const item of report.items.filter((i) => i.outcome === 'unknown')) {
      const reason = item.reason.replace(/\/subscriptions\/\S+/g, 'ID').replace(/^owner \S+/, 'owner X');
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    console.log('unknown, by reason:', JSON.stringify(Object.fromEntries(reasons), null, 1));
    console.log(
      `adopt-check over ${report.summary.total} ASO objects (${report.summary.passedOver} passed over), ${crds.length} real CRDs (${preexisting} already on the plane): ` +
        `by outcome ${JSON.stringify(report.summary.byOutcome)}, by ARM-type source ${JSON.stringify(report.summary.bySource)}, exit ${code}`,
    );
  });

  it('gives each resolvable object an ARM ID matching its CRD ARM URI, and answers it as the emulator says', () => {
    const index = crdArmIndexOf(crds);
    report.items.forEach((item, i) => {
      // Items come in the order of the objects read.
      const object = set?.objects[i];
      expect(`${object?.kind}/${object?.metadata.name}`).toBe(`${item.kind}/${item.name}`);
      if (item.armId === null) {
        expect(item.outcome, `${item.kind}/${item.name}`).toBe('unknown');
        return;
      }
      if (item.source === 'crd') {
        const [group = '', version = ''] = object?.apiVersion.split('/') ?? [];
        const template = index.get(`${group}/${item.kind}`.toLowerCase())?.get(version);
        expect(template, `${object?.apiVersion} ${item.kind}`).toBeDefined();
        expect(item.armId, `${item.kind}/${item.name} vs ${template?.template}`).toMatch(
          armIdPattern(template as never),
        );
      }
      if (item.armId.toLowerCase() === sampleRgId.toLowerCase())
        expect(item.outcome, item.name).toBe('adopt-manage');
      else if (item.outcome !== 'unknown') expect(item.outcome, `${item.kind}/${item.name}`).toBe('create');
    });
    const rg = report.items.find((i) => i.armId?.toLowerCase() === sampleRgId.toLowerCase());
    expect(rg?.outcome).toBe('adopt-manage');
  });

  it('says which owner is missing for each unknown, and wrote nothing to the cluster or to ARM', () => {
    for (const item of report.items.filter((i) => i.outcome === 'unknown'))
      expect(item.reason, `${item.kind}/${item.name}`).toMatch(/\S/);
    const missingOwner = report.items.filter((i) => i.reason.startsWith('owner '));
    for (const item of missingOwner) expect(item.reason).toMatch(/^owner \S+/);
    expect(writesDuringRun).toBe(0);
    const armWrites = arm.requests().filter((r) => r.path.includes('/subscriptions/') && r.method !== 'GET');
    expect(armWrites).toEqual([]);
  });
});
