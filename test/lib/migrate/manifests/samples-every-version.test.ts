import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { registry } from '../../../../generated/registry.ts';
import { compareAsoVersions, parseAsoVersion } from '../../../../src/lib/aso-version-name.ts';
import { convert } from '../../../../src/lib/conversion/convert.ts';
import { installedGeneratedCrds } from '../../../../src/lib/crds/generated-crds.ts';
import { connect } from '../../../../src/lib/kube/connect.ts';
import { clusterSchemas } from '../../../../src/lib/migrate/manifests/cluster-schemas.ts';
import { ConversionLoss } from '../../../../src/lib/migrate/manifests/errors.ts';
import { manifestOptionsOf } from '../../../../src/lib/migrate/manifests/options.ts';
import { runManifestMigration } from '../../../../src/lib/migrate/manifests/run.ts';
import { loadSamples } from '../../../differential/samples.ts';
import { sharedData } from '../../../fixtures/shared-data.ts';

const neededBy = 'test/lib/migrate/manifests/samples-every-version.test.ts';
const samples = sharedData('aso-samples/v2.20.0', neededBy);

/** `migrate -f - --to <to>` on one object, as a user with no cluster runs it. */
function migrate(object: Record<string, unknown>, to: string, allowLoss = false) {
  const options = manifestOptionsOf(
    { filename: ['-'], to, recursive: false, write: false, diff: false, 'allow-loss': allowLoss },
    () => stringify(object),
  );
  const noCluster = clusterSchemas(() =>
    connect({ kubeconfig: join(tmpdir(), 'kubectl-aso-no-such-kubeconfig') }),
  );
  return runManifestMigration(options, noCluster);
}

/** An object at its kind's hub, but for `originalVersion`: what it means, whatever version holds it. */
function atHub(object: Record<string, unknown>, hub: string): unknown {
  const stored = convert(object, hub);
  const { originalVersion: _, ...spec } = stored.spec as Record<string, unknown>;
  return { ...stored, spec };
}

/** The API versions ASO v2.20.0 serves for a kind newer than `version`, as its generated CRD lists them. */
function newerServed(group: string, kind: string, version: string): string[] {
  const from = parseAsoVersion(version);
  const crd = installedGeneratedCrds()?.find(group, kind);
  if (!from || !crd) return [];
  return crd
    .document()
    .spec.versions.filter((v) => v.served)
    .map((v) => v.name)
    .filter((name) => {
      const parsed = parseAsoVersion(name);
      return parsed !== undefined && !parsed.storage && compareAsoVersions(parsed, from) > 0;
    });
}

describe.skipIf(!samples.present)(
  'migrate -f of every operator sample to every newer version it is served at',
  () => {
    it('converts each without a cluster to the same object at the hub, or refuses naming what it would lose', async () => {
      let converted = 0;
      const refused: string[] = [];
      const outsideCore: string[] = [];
      for (const { file, object } of loadSamples(samples.path)) {
        const [group = '', version = ''] = String(object.apiVersion).split('/');
        const kind = String(object.kind);
        const entry = registry.groups[group]?.[kind];
        if (!entry) {
          outsideCore.push(`${group} ${kind}`);
          continue;
        }
        for (const target of newerServed(group, kind, version)) {
          const label = `${file} -> ${target}`;
          const outcome = await migrate(object, target).catch((error: unknown) => {
            if (error instanceof ConversionLoss) return error;
            throw new Error(`${label}: ${(error as Error).message}`);
          });
          if (outcome instanceof ConversionLoss) {
            // A refusal names the object and each path the target version has no place for; told to drop
            // them, the run converts it.
            expect(outcome.message, label).toMatch(/cannot hold spec\.\S+/);
            const dropped = await migrate(object, target, true);
            expect((parse(dropped.stdout) as Record<string, unknown>).apiVersion, label).toBe(
              `${group}/${target}`,
            );
            refused.push(label);
            continue;
          }
          const moved = parse(outcome.stdout) as Record<string, unknown>;
          expect(moved.apiVersion, label).toBe(`${group}/${target}`);
          expect(atHub(moved, entry.hub), label).toEqual(atHub(object, entry.hub));
          converted++;
        }
      }
      console.log(
        `migrate -f over the samples: ${converted} conversions to a newer served version kept every value, ${refused.length} refused a loss (then converted with --allow-loss); ${outsideCore.length} samples of kinds without ARM stay as they are${refused.map((label) => `\n  refused: ${label.replace(samples.path, '')}`).join('')}`,
      );
      expect(converted).toBeGreaterThan(1000);
      // The operator ships a few samples of a newer preview whose properties the GA it serves cannot hold.
      expect(refused.length).toBeLessThan(converted / 20);
    });
  },
);
