import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';
import type { CatalogEntry } from '../../src/lib/conversion/catalog-types.ts';
import { convert } from '../../src/lib/conversion/convert.ts';
import { propertySeed } from '../../src/testing/conversion-support.ts';
import { operatorCompatUses } from '../fixtures/operator-compat.ts';
import { goToolchain, operatorConversionBinary } from '../fixtures/operator-conversion.ts';
import { operatorGoModule } from '../fixtures/operator-go-module.ts';
import { sharedData } from '../fixtures/shared-data.ts';
import { armFiguresLine, compareKindArm, isArmKind } from './arm-vs-operator.ts';
import { compareKind } from './compare-kind.ts';
import {
  comparePair,
  disagreementReport,
  figuresLine,
  figuresOf,
  type OurConvert,
  pullRefusal,
  sharedKind,
  versionPairs,
  withoutBagEntries,
} from './random-pairs.ts';
import { loadSamples } from './samples.ts';
import { crdFileOfKind, crdSchemasIn } from './schemas.ts';

/*
 * Issue 23, item 1: the versions v2.18.0 served and v2.20.0 removed (AKS v1api20240402preview and its
 * storage variant) are in the core, imported from v2.18.0's CRDs and Go types. Their referee is v2.18.0's own
 * conversions (test/operator-conversion built with ASO_RELEASE=v2.18.0): random objects for every version
 * pair with a removed version on one side, both ways round, and v2.18.0's own samples at every version.
 */

const neededBy = 'test/differential/removed-versions-vs-operator.test.ts';
const go = goToolchain(neededBy);
const current = sharedData('real-aso-crds/v2.20.0', neededBy);
const earlier = sharedData('real-aso-crds/v2.18.0', neededBy);
const earlierModule = operatorGoModule(neededBy, 'v2.18.0');
const currentModule = operatorGoModule(neededBy);
const release = 'v2.18.0';
/** Random objects per version pair: 26 pairs per kind here, three rounds each. */
const perPair = 10;
/** Random objects per removed version for the ARM body: most random AKS clusters hold a reference ARM refuses. */
const armPerVersion = 60;

/** Each generated kind with the versions its v2.18.0 CRD serves and its v2.20.0 CRD no longer does. */
function kindsWithRemovedVersions(): { entry: CatalogEntry; removed: string[] }[] {
  return catalog.flatMap((entry) => {
    const file = crdFileOfKind(entry.group, entry.kind);
    const then = crdSchemasIn(join(earlier.path, file));
    const now = crdSchemasIn(join(current.path, file));
    if (!then || !now) return [];
    const removed = [...then.keys()].filter((version) => !now.has(version)).sort();
    return removed.length > 0 ? [{ entry, removed }] : [];
  });
}

describe.skipIf(
  !go.present || !current.present || !earlier.present || !earlierModule.present || !currentModule.present,
)("the versions v2.20.0 removed convert as v2.18.0's own conversions do", () => {
  const kinds = current.present && earlier.present ? kindsWithRemovedVersions() : [];

  beforeAll(async () => {
    await operatorConversionBinary('containerservice.azure.com', release);
  }, 1_800_000);

  it('are every version v2.18.0 served that v2.20.0 does not, and the core serves them all', () => {
    expect(kinds.map(({ entry, removed }) => `${entry.kind} ${removed.join(' ')}`)).toEqual([
      'ManagedCluster v1api20240402preview v1api20240402previewstorage',
      'ManagedClustersAgentPool v1api20240402preview v1api20240402previewstorage',
      'TrustedAccessRoleBinding v1api20240402preview v1api20240402previewstorage',
    ]);
    for (const { entry, removed } of kinds)
      expect([...entry.versions.map((v) => v.version), ...entry.storageVersions]).toEqual(
        expect.arrayContaining(removed),
      );
  });

  for (const { entry, removed } of kinds) {
    it(`${entry.kind}: ${perPair} random objects per version pair with a removed version, both ways round`, async () => {
      const kind = sharedKind(entry, earlier.path, release);
      const pairs = versionPairs(kind).filter(
        ({ source, target }) => removed.includes(source) || removed.includes(target),
      );
      const results = [];
      for (const { source, target } of pairs)
        results.push(await comparePair(kind, source, target, perPair, propertySeed));
      const figures = figuresOf(kind, results);
      const underCompat = compatPattern(compatProperties(earlierModule.path, entry.group));
      const report = disagreementReport(figures);
      const outside = report.filter((line) => !underCompat.test(line.split(' ')[5] ?? ''));
      process.stdout.write(
        `operator agreement (random, ${release} referee): ${figuresLine(figures)}; differing only under the properties ${release} carries in compat types: ${report.length - outside.length} patterns\n`,
      );
      expect(pairs.length).toBeGreaterThan(removed.length);
      expect(outside).toEqual([]);
      expect(figures.compared).toBeGreaterThanOrEqual(pairs.length * perPair);
      expect(figures.bags.entries).toBeGreaterThan(0);
    }, 600_000);
  }

  it('differ from v2.18.0 only where it has storage compat types v2.20.0 does not: the core follows v2.20.0', () => {
    // v2.18.0 converts three preview-only properties through compat types at 2024-09-01; v2.20.0, with no
    // preview below, has none there, and its conversions between the versions it serves are the ones the
    // core matches (test/codegen/storage-compat.test.ts).
    expect(compatProperties(earlierModule.path, 'containerservice.azure.com')).toEqual([
      'gpuProfile',
      'nodeProvisioningProfile',
      'virtualMachinesProfile',
    ]);
    expect(compatProperties(currentModule.path, 'containerservice.azure.com')).toEqual([]);
  });

  it("excuse the operator's refusal to pull a bag entry only where convert() keeps that entry (a negative control)", async () => {
    const pool = kinds.find(({ entry }) => entry.kind === 'ManagedClustersAgentPool');
    if (!pool) throw new Error('no ManagedClustersAgentPool among the kinds with removed versions');
    const kind = sharedKind(pool.entry, earlier.path, release);
    const pair = (ourConvert?: OurConvert) =>
      comparePair(kind, 'v1api20240402preview', 'v20251002previewstorage', 30, propertySeed, ourConvert);
    const honest = await pair();
    expect(honest.excluded[pullRefusal]).toBeGreaterThan(0);
    const underCompat = compatPattern(compatProperties(earlierModule.path, pool.entry.group));
    expect([...honest.disagreements.values()].filter((d) => !underCompat.test(d.first.pattern))).toEqual([]);
    // A convert() that loses the entry the operator cannot read is not excused: the refusal is reported.
    const losing = await pair((object, target) => withoutBagEntries(convert(object, target), /^Autoscale$/));
    expect(losing.excluded[pullRefusal]).toBeUndefined();
    expect([...losing.disagreements.keys()].some((key) => key.startsWith('direct (conversion)'))).toBe(true);
  }, 300_000);

  it('agree with v2.18.0 on its own samples of these kinds, at every version both serve', async () => {
    const samples = loadSamples(join(earlierModule.path, 'samples', 'containerservice'));
    for (const { entry, removed } of kinds) {
      const versions = [...entry.versions.map((v) => v.version), ...entry.storageVersions];
      const result = await compareKind(
        { group: entry.group, kind: entry.kind, versions },
        samples,
        earlier.path,
        undefined,
        release,
      );
      process.stdout.write(
        `operator agreement (samples, ${release} referee): ${entry.kind}: ${result.agreed} of ${result.compared} conversions agree on ${result.leaves} values\n`,
      );
      expect(result.shared).toEqual(expect.arrayContaining(removed));
      expect(result.compared).toBeGreaterThan(0);
      expect(result.disagreements).toEqual([]);
    }
  }, 600_000);

  it("send v2.18.0's ARM body: the ConvertToARM of its samples and of random objects at each removed version", async () => {
    const samples = loadSamples(join(earlierModule.path, 'samples', 'containerservice'));
    const failures: string[] = [];
    for (const { entry, removed } of kinds.filter(({ entry }) => isArmKind(entry))) {
      const figures = await compareKindArm(entry, samples, earlier.path, armPerVersion, propertySeed, {
        release,
        only: removed,
      });
      process.stdout.write(`${armFiguresLine(figures)} (${release} referee, ${removed.join(' ')})\n`);
      expect(figures.agreed).toBeGreaterThan(0);
      for (const [pattern, d] of figures.disagreements)
        failures.push(
          `${figures.key} ${pattern}: ours ${JSON.stringify(d.ours)} operator ${JSON.stringify(d.operator)}`,
        );
      failures.push(...figures.refusals.map((r) => `${figures.key}: ${r}`));
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

/** The properties a release's storage conversions of a group carry through compat types, read from its module. */
function compatProperties(moduleDir: string, apiGroup: string): string[] {
  const group = apiGroup.replace(/\.azure\.com$/, '');
  return [...new Set(operatorCompatUses(moduleDir, new Set([group])).map((u) => u.property))].sort();
}

/** A disagreement pattern under one of `properties`, or at its bag entry (`$propertyBag.GpuProfile`). */
function compatPattern(properties: readonly string[]): RegExp {
  const names = properties.join('|');
  return new RegExp(`(^|\\.)(${names})(\\.|\\[|$)|\\$propertyBag\\.(${names})$`, 'i');
}
