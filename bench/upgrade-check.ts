// `npm run bench:upgrade-check`: `kubectl aso upgrade-check --to v2.20.0` on a cluster running ASO v2.18.0's
// real CRDs, 50 of them holding 10,000 objects over 20 namespaces, against `kubectl get` over the same 50
// CRDs. Target (issue 27): the check within 2x of `kubectl get -A`.
//
// The CRDs are the operator's own (../shared/real-aso-crds/v2.18.0): every kind the catalog's v2.18.0 ->
// v2.20.0 hop removes a version of, installed storing at that version so that its objects are stored and
// applied there (what the check must find), and the smallest other CRDs to make 50. Each object is the
// smallest its version's schema accepts (its required properties, enum values taken from the schema).
// The plane lives in .local/bench-upgrade-check and is reused; `--down` stops it; `--runs N` (default 5).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { releaseCatalog } from '../generated/releases.ts';
import type { KubeClient } from '../src/lib/kube/client.ts';
import { Conflict } from '../src/lib/kube/errors.ts';
import { resourcePath } from '../src/lib/kube/paths.ts';
import { applyObject, waitForEstablished } from '../test/control-plane/apply.ts';
import { clientFor, startPlane, stopPlane } from '../test/control-plane/plane.ts';
import { minimalValue, type SchemaNode } from '../test/fixtures/minimal-object.ts';
import { type RealCrdVersions, realCrdVersions } from '../test/fixtures/real-crd-versions.ts';
import { sharedDir } from '../test/fixtures/shared-data.ts';
import { race, report, verdict } from './race.ts';

const root = resolve(new URL('..', import.meta.url).pathname);
const planeDir = join(root, '.local/bench-upgrade-check');
const bin = join(root, 'bin/kubectl-aso');
const crdDir = join(sharedDir, 'real-aso-crds/v2.18.0');
const crdCount = 50;
const objects = 10_000;
const namespaceCount = 20;
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1] ?? 5) || 5;

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema: { openAPIV3Schema: SchemaNode };
}
interface CrdDocument {
  [key: string]: unknown;
  apiVersion: string;
  kind: string;
  metadata: { name: string; resourceVersion?: string };
  spec: { group: string; names: { kind: string; plural: string }; versions: CrdVersion[] };
}

/** A kind's CRD to install, the version its objects are written at, and that version's smallest spec. */
interface Planned {
  crd: CrdDocument;
  /** The CRD as first installed: storing at `version`'s storage variant, for a kind the hop removes it of. */
  first: CrdDocument;
  version: string;
  spec: Record<string, unknown>;
}

function planned(file: string): Planned | undefined {
  const crd = parse(readFileSync(join(crdDir, file), 'utf8')) as CrdDocument;
  const hop = releaseCatalog.hops.find((h) => h.from === 'v2.18.0' && h.to === 'v2.20.0');
  const removed = hop?.kinds[`${crd.spec.group}/${crd.spec.names.kind}`]?.removedVersions ?? [];
  const version =
    removed.find((v) => !v.endsWith('storage')) ??
    (crd.spec.versions.find((v) => v.storage)?.name.replace(/storage$/, '') as string);
  const schema = crd.spec.versions.find((v) => v.name === version)?.schema.openAPIV3Schema;
  const spec = schema?.properties?.spec === undefined ? {} : minimalValue(schema.properties.spec);
  if (spec === undefined || typeof spec !== 'object') return undefined;
  const first =
    removed.length === 0
      ? crd
      : {
          ...crd,
          spec: {
            ...crd.spec,
            versions: crd.spec.versions.map((v) => ({ ...v, storage: v.name === `${version}storage` })),
          },
        };
  return { crd, first, version, spec: spec as Record<string, unknown> };
}

/** The kinds the hop removes a version of, then the smallest CRD files, to `crdCount` that take an object. */
function candidates(): string[] {
  const hop = releaseCatalog.hops.find((h) => h.from === 'v2.18.0' && h.to === 'v2.20.0');
  const size = (file: string) => statSync(join(crdDir, file)).size;
  const bySize = realCrdVersions(crdDir).sort(
    (a, b) => size(a.file) - size(b.file) || (a.file < b.file ? -1 : 1),
  );
  const removes = (crd: RealCrdVersions) =>
    hop?.kinds[`${crd.group}/${crd.kind}`]?.removedVersions !== undefined;
  return [...bySize.filter(removes), ...bySize.filter((crd) => !removes(crd))].map((crd) => crd.file);
}

async function install(admin: KubeClient): Promise<Planned[]> {
  const chosen: Planned[] = [];
  for (const file of candidates()) {
    if (chosen.length === crdCount) break;
    const plan = planned(file);
    if (plan === undefined) continue;
    await applyObject(admin, plan.first, {
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      namespaced: false,
    });
    await waitForEstablished(admin, plan.crd.metadata.name);
    try {
      await createOne(admin, plan, 0);
      chosen.push(plan);
    } catch (error) {
      process.stderr.write(
        `  skipped ${plan.crd.metadata.name}: ${(error as Error).message.slice(0, 160)}\n`,
      );
      await admin.request({
        method: 'DELETE',
        path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${plan.crd.metadata.name}`,
        subject: { verb: 'delete', resource: 'customresourcedefinitions' },
      });
    }
  }
  return chosen;
}

async function createOne(admin: KubeClient, plan: Planned, index: number): Promise<void> {
  const placement = {
    group: plan.crd.spec.group,
    version: plan.version,
    plural: plan.crd.spec.names.plural,
    namespaced: true,
  };
  const namespace = `bench-${index % namespaceCount}`;
  try {
    await admin.request({
      method: 'POST',
      path: resourcePath(placement, namespace),
      body: {
        apiVersion: `${plan.crd.spec.group}/${plan.version}`,
        kind: plan.crd.spec.names.kind,
        metadata: { name: `obj-${index}`, namespace },
        spec: plan.spec,
      },
      subject: { verb: 'create', resource: placement.plural, namespace },
    });
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
  }
}

async function populate(admin: KubeClient): Promise<Planned[]> {
  for (let index = 0; index < namespaceCount; index++)
    await applyObject(admin, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `bench-${index}` } });
  const chosen = await install(admin);
  if (chosen.length < crdCount) throw new Error(`only ${chosen.length} CRDs take a minimal object`);
  const perCrd = objects / crdCount;
  const jobs = chosen.flatMap((plan) => Array.from({ length: perCrd }, (_, i) => [plan, i] as const));
  const started = Date.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: 24 }, async () => {
      while (next < jobs.length) {
        const [plan, i] = jobs[next++] as (typeof jobs)[number];
        await createOne(admin, plan, i);
        if (++done % 2000 === 0) process.stderr.write(`  created ${done}/${jobs.length}\n`);
      }
    }),
  );
  process.stderr.write(
    `  created ${jobs.length} objects in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  // The release's own CRD now replaces the one that stored at the removed version, as its install would.
  for (const plan of chosen.filter((p) => p.first !== p.crd))
    await applyObject(admin, plan.crd, {
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      namespaced: false,
    });
  return chosen;
}

/** What a populated plane holds, kept beside it so that a later run measures the same CRDs. */
interface Populated {
  crds: string[];
  /** The CRDs storing objects at a version v2.20.0 removes. */
  removing: string[];
}

async function main(): Promise<void> {
  if (args.includes('--down')) {
    await stopPlane(planeDir);
    console.log('bench plane stopped and removed');
    return;
  }
  if (!existsSync(join(root, 'dist'))) throw new Error('build first: npm run build');
  if (!existsSync(crdDir)) throw new Error(`the operator's v2.18.0 CRDs are not at ${crdDir}`);
  const plane = await startPlane(planeDir, { withGenerated: false });
  const admin = await clientFor(plane);
  const marker = join(planeDir, 'populated.json');
  if (!existsSync(marker)) {
    const chosen = await populate(admin);
    const populated: Populated = {
      crds: chosen.map((p) => p.crd.metadata.name),
      removing: chosen.filter((p) => p.first !== p.crd).map((p) => p.crd.metadata.name),
    };
    writeFileSync(marker, `${JSON.stringify(populated)}\n`);
  }
  const { crds, removing } = JSON.parse(readFileSync(marker, 'utf8')) as Populated;
  const names = crds.join(',');
  const results = await race(
    [
      {
        label: 'kubectl aso upgrade-check --to v2.20.0 -o json',
        command: process.execPath,
        args: [bin, 'upgrade-check', '--to', 'v2.20.0', '-o', 'json'],
        // It finds what blocks (the CRDs storing at a removed version): exit 28 is its answer here.
        okCodes: [28],
      },
      {
        label: 'kubectl aso upgrade-check --to v2.20.0',
        command: process.execPath,
        args: [bin, 'upgrade-check', '--to', 'v2.20.0'],
        okCodes: [28],
      },
      { label: 'kubectl get <50 CRDs> -A', command: 'kubectl', args: ['get', names, '-A'] },
      {
        label: 'kubectl get <50 CRDs> -A -o json',
        command: 'kubectl',
        args: ['get', names, '-A', '-o', 'json'],
      },
    ],
    plane.kubeconfig,
    runs,
  );
  console.log(
    `\nbench/upgrade-check: ${runs} runs each after one warm-up; node ${process.version}; ${new Date().toISOString()}`,
  );
  console.log(
    `\n${objects} objects in ${crdCount} real v2.18.0 CRDs over ${namespaceCount} namespaces; ` +
      `${removing.length} of the CRDs store and apply objects at a version v2.20.0 removes (${removing.join(', ')}):`,
  );
  const medians = report(results, 50);
  const check = medians.get('kubectl aso upgrade-check --to v2.20.0 -o json') as number;
  console.log('\nratios:');
  console.log(
    verdict(
      'upgrade-check -o json / kubectl get -A',
      check / (medians.get('kubectl get <50 CRDs> -A') as number),
      2.0,
    ),
  );
  console.log(
    verdict(
      'upgrade-check (table) / kubectl get -A',
      (medians.get('kubectl aso upgrade-check --to v2.20.0') as number) /
        (medians.get('kubectl get <50 CRDs> -A') as number),
      2.0,
    ),
  );
  console.log(
    `\nthe plane stays up for the next run (.local/bench-upgrade-check); stop it with: node bench/upgrade-check.ts --down`,
  );
}

await main();
