import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { defaultOperatorGoDir } from '../../src/codegen/import/operator-go.ts';
import { AsoError } from '../../src/lib/errors.ts';
import { exitCodes } from '../../src/lib/exit-codes.ts';
import type { KubeClient } from '../../src/lib/kube/client.ts';
import { type LocatedObject, readLocatedManifests } from '../../src/lib/manifests/read.ts';
import { crdType } from '../../src/lib/migrate/crds.ts';
import type { UpgradeCheckReport } from '../../src/lib/upgrade/check.ts';
import { applyObject, waitForEstablished } from '../control-plane/apply.ts';
import { clientFor, type Plane, startPlane, stopPlane } from '../control-plane/plane.ts';
import { runCli } from '../fixtures/cli.ts';
import { type RealCrdVersions, realCrdVersions } from '../fixtures/real-crd-versions.ts';
import { randomFrom } from '../fixtures/seeded-random.ts';
import { sharedData } from '../fixtures/shared-data.ts';

const neededBy = 'test/commands/upgrade-check-samples.test.ts';
const crds18 = sharedData('real-aso-crds/v2.18.0', neededBy);
const crds20 = sharedData('real-aso-crds/v2.20.0', neededBy);

/**
 * The operator's own samples of v2.18.0, from its Go module. Fetched into the Go module cache when it is not
 * there (the module proxy serves it); without Go, skipped with one line, and failing under `CI=true`.
 */
function samplesOf1180(): { path: string; present: boolean } {
  const module = defaultOperatorGoDir('v2.18.0');
  if (!existsSync(module)) {
    try {
      execFileSync('go', ['mod', 'download', 'github.com/Azure/azure-service-operator/v2@v2.18.0'], {
        stdio: 'ignore',
        env: { ...process.env, GOFLAGS: '-mod=mod' },
      });
    } catch {
      const line = `${neededBy} needs ASO v2.18.0's Go module at ${module}, and go mod download failed`;
      if (process.env.CI === 'true') throw new Error(line);
      process.stderr.write(`skipped: ${line}\n`);
    }
  }
  return { path: join(module, 'samples'), present: existsSync(join(module, 'samples')) };
}
const samples = crds18.present && crds20.present ? samplesOf1180() : { path: '', present: false };

/** How many sample objects without a finding the plane validates; all of them with ASO_UPGRADE_SAMPLES_ALL=1. */
const sampledObjects = 60;
const seed = Number(process.env.ASO_UPGRADE_SAMPLES_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** `group/Kind` -> the real CRD of one release folder. */
function realCrdFiles(dir: string): Map<string, RealCrdVersions> {
  return new Map(realCrdVersions(dir).map((crd) => [`${crd.group}/${crd.kind}`, crd]));
}

const groupOf = (object: LocatedObject) => object.object.apiVersion.split('/')[0] ?? '';
const kindOf = (object: LocatedObject) => `${groupOf(object)}/${object.object.kind}`;
const nameOf = (object: LocatedObject) => `${object.object.kind}/${object.object.metadata.name}`;

/**
 * The manifest side of the real upgrade: ASO v2.18.0's own samples, checked for v2.20.0, then sent as a
 * strict server-side dry run to an API server holding the real v2.18.0 CRDs, and again once it holds the
 * real v2.20.0 ones. Of the samples v2.18.0 takes, every object the check lets through must validate at
 * v2.20.0 and every object it flags must be refused: the check's findings are exactly the samples the upgrade
 * breaks. (Some of the operator's samples carry fields its own CRDs do not define; v2.18.0 already refuses
 * those, and they are counted apart.) The objects without a finding are sampled by a printed seed
 * (ASO_UPGRADE_SAMPLES_SEED repeats it; ASO_UPGRADE_SAMPLES_ALL=1 sends every one).
 */
describe.skipIf(!crds18.present || !crds20.present || !samples.present)(
  "ASO v2.18.0's samples against the real v2.20.0 CRDs",
  () => {
    const stateDir = resolve(
      new URL('../..', import.meta.url).pathname,
      `.local/upgrade-samples-plane-${process.pid}`,
    );
    let plane: Plane;
    let client: KubeClient;
    let report: UpgradeCheckReport;
    let code: number;
    const objects = samples.present
      ? readLocatedManifests({ files: [samples.path], recursive: true }).located.filter((o) =>
          groupOf(o).endsWith('.azure.com'),
        )
      : [];

    beforeAll(async () => {
      const run = await runCli([
        'upgrade-check',
        '--from',
        'v2.18.0',
        '--to',
        'v2.20.0',
        '-f',
        samples.path,
        '-R',
        '-o',
        'json',
      ]);
      code = run.code;
      report = JSON.parse(run.stdout) as UpgradeCheckReport;
      plane = await startPlane(stateDir, { withGenerated: false });
      client = await clientFor(plane);
    }, 300_000);

    afterAll(async () => {
      await stopPlane(stateDir);
    });

    /** Installs (or replaces) the kinds' CRDs of one release and returns them. */
    const install = async (dir: string, kinds: readonly string[]) => {
      const files = realCrdFiles(dir);
      for (const kind of kinds) {
        const crd = files.get(kind);
        if (crd === undefined) continue;
        const document = parse(readFileSync(join(dir, crd.file), 'utf8')) as Parameters<
          typeof applyObject
        >[1];
        await applyObject(client, document, { ...crdType, namespaced: false });
        await waitForEstablished(client, document.metadata.name);
      }
      return files;
    };
    /** The API server's answer to a strict dry-run create of the object: undefined when it validates. */
    const refusal = async (files: Map<string, RealCrdVersions>, o: LocatedObject) => {
      const [group, version] = o.object.apiVersion.split('/') as [string, string];
      const crd = files.get(kindOf(o));
      if (crd === undefined) return `${kindOf(o)} has no CRD`;
      const namespace = o.object.metadata.namespace ?? 'default';
      const { apiVersion, kind, metadata, spec } = o.object;
      try {
        await client.request({
          method: 'POST',
          path: `/apis/${group}/${version}/namespaces/${namespace}/${crd.plural}`,
          // Strict: a property the schema lacks is refused, not pruned in silence.
          query: { dryRun: 'All', fieldValidation: 'Strict' },
          body: { apiVersion, kind, metadata, ...(spec ? { spec } : {}) },
          subject: { verb: 'create', resource: crd.plural, namespace },
        });
        return undefined;
      } catch (error) {
        if (error instanceof AsoError) return error.message;
        throw error;
      }
    };

    it('checks every sample and flags the ones at a version v2.20.0 removes', () => {
      expect(objects.length).toBeGreaterThan(650);
      expect(report.manifests?.objects).toBe(objects.length);
      expect(code).toBe(exitCodes.upgradeBlocked.code);
      expect(report.manifests?.findings.length).toBeGreaterThan(0);
    });

    it('is right about each: what it lets through validates against v2.20.0, what it flags is refused', async () => {
      const flagged = new Set((report.manifests?.findings ?? []).map((f) => `${f.file}\u0000${f.object}`));
      const keyOf = (o: LocatedObject) =>
        `${o.file}\u0000${nameOf(o)}${o.object.metadata.namespace ? ` -n ${o.object.metadata.namespace}` : ''}`;
      const bad = objects.filter((o) => flagged.has(keyOf(o)));
      expect(bad.length).toBe(flagged.size);
      const good = objects.filter((o) => !flagged.has(keyOf(o)));
      const random = randomFrom(seed);
      const picked =
        process.env.ASO_UPGRADE_SAMPLES_ALL === '1'
          ? good
          : good
              .map((o) => [random(), o] as const)
              .sort((a, b) => a[0] - b[0])
              .slice(0, sampledObjects)
              .map(([, o]) => o);
      process.stderr.write(
        `${neededBy}: seed ${seed} picks ${picked.length} of ${good.length} samples the check lets through (ASO_UPGRADE_SAMPLES_SEED=${seed} repeats it; ASO_UPGRADE_SAMPLES_ALL=1 sends all), and all ${bad.length} it flags\n`,
      );
      const sent = [...picked, ...bad];
      for (const namespace of new Set(sent.map((o) => o.object.metadata.namespace ?? 'default')))
        await applyObject(client, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
      const kinds = [...new Set(sent.map(kindOf))].sort();

      const files18 = await install(crds18.path, kinds);
      const taken: LocatedObject[] = [];
      const refused18: string[] = [];
      for (const o of sent) {
        const why = await refusal(files18, o);
        if (why === undefined) taken.push(o);
        else refused18.push(`${o.file}: ${nameOf(o)}: ${why}`);
      }
      const files20 = await install(crds20.path, kinds);
      const refusedGood: string[] = [];
      for (const o of taken.filter((t) => picked.includes(t))) {
        const why = await refusal(files20, o);
        if (why !== undefined) refusedGood.push(`${o.file}: ${nameOf(o)}: ${why}`);
      }
      process.stderr.write(
        `${neededBy}: v2.18.0 itself refuses ${refused18.length} of the ${sent.length} samples sent (fields its CRDs do not define); ${refusedGood.length} of the others that the check lets through are refused by v2.20.0\n`,
      );
      expect(refusedGood).toEqual([]);
      // The flagged samples are valid at v2.18.0, and v2.20.0 refuses each.
      expect(bad.filter((o) => !taken.includes(o)).map(nameOf)).toEqual([]);
      for (const o of bad) expect(await refusal(files20, o), `${o.file}: ${nameOf(o)}`).toBeDefined();
    }, 600_000);

    it('rewrites each flagged sample with the command it prints, keeping every value, and the result validates against v2.20.0', async () => {
      const findings = report.manifests?.findings ?? [];
      expect(findings.map((f) => f.problem)).toEqual(findings.map(() => 'removed-version'));
      const files20 = await install(crds20.path, [
        ...new Set(findings.map((f) => `${f.apiVersion.split('/')[0]}/${f.object.split('/')[0]}`)),
      ]);
      for (const finding of findings) {
        // The command as printed: `kubectl aso migrate -f FILE --to VERSION`, which writes the result to stdout.
        const command = /^kubectl aso migrate -f (\S+) --to (\S+)$/.exec(finding.fix);
        expect(command, finding.fix).not.toBeNull();
        expect(finding.values).toBe('kept');
        const [, file = '', target = ''] = command ?? [];
        const run = await runCli(['migrate', '-f', file, '--to', target]);
        expect(run.code, run.stderr).toBe(0);
        const rewritten = parseAllDocuments(run.stdout).map((d) => d.toJS() as LocatedObject['object']);
        expect(rewritten.map((o) => o.apiVersion)).toEqual([`${finding.apiVersion.split('/')[0]}/${target}`]);
        for (const object of rewritten)
          expect(
            await refusal(files20, { file, object } as LocatedObject),
            `${file}: ${object.kind}`,
          ).toBeUndefined();
      }
    }, 300_000);
  },
);
