import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { releaseCatalog } from '../../../generated/releases.ts';
import { readLocatedManifests } from '../../../src/lib/manifests/read.ts';
import { checkUpgrade, upgradeCheckExit } from '../../../src/lib/upgrade/check.ts';
import { hopsBetween, NotAnUpgrade, UnknownRelease } from '../../../src/lib/upgrade/hops.ts';
import { locationsOf, pathText } from '../../../src/lib/upgrade/property-paths.ts';
import type { ReleaseCatalog } from '../../../src/lib/upgrade/release-types.ts';

const dir = mkdtempSync(join(tmpdir(), 'upgrade-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function manifest(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  return readLocatedManifests({ files: [file], recursive: false }).located;
}

/** A catalog of three releases in which ResourceGroup loses v1alpha1api20200601 and Widget loses and retypes properties. */
const catalog: ReleaseCatalog = {
  releases: ['v2.1.0', 'v2.2.0', 'v2.3.0'],
  operators: {
    'v2.1.0': { cleansStoredVersions: false },
    'v2.2.0': { cleansStoredVersions: false },
    'v2.3.0': { cleansStoredVersions: true },
  },
  kinds: {
    'v2.3.0': {
      'resources.azure.com/ResourceGroup': {
        served: ['v1api20200601', 'v1api20200601storage'],
        storage: 'v1api20200601storage',
      },
    },
  },
  hops: [
    {
      from: 'v2.1.0',
      to: 'v2.2.0',
      addedKinds: [],
      removedKinds: [],
      kinds: {
        'things.azure.com/Widget': {
          removedProperties: { v1: ['spec.rules[].gone', 'spec.tier'] },
          retypedProperties: { v1: [{ path: 'spec.labels{}', from: 'string', to: 'integer' }] },
        },
      },
    },
    {
      from: 'v2.2.0',
      to: 'v2.3.0',
      addedKinds: [],
      removedKinds: [],
      kinds: {
        'resources.azure.com/ResourceGroup': {
          removedVersions: ['v1alpha1api20200601', 'v1alpha1api20200601storage'],
        },
        'things.azure.com/Widget': { removedVersions: ['v1'] },
      },
    },
  ],
};

describe('hopsBetween', () => {
  it('takes the hops between two releases, however they are spelled', () => {
    expect(hopsBetween(catalog, '2.1', 'v2.3.0').map((hop) => hop.to)).toEqual(['v2.2.0', 'v2.3.0']);
    expect(hopsBetween(catalog, 'v2.2.0', '2.3.0')).toHaveLength(1);
  });

  it('names a release it does not know with the ones it does, and refuses a downgrade', () => {
    expect(() => hopsBetween(catalog, 'v2.19.0', 'v2.3.0')).toThrow(UnknownRelease);
    try {
      hopsBetween(catalog, 'v2.1.0', 'v9.9.9');
    } catch (error) {
      expect((error as UnknownRelease).message).toBe(
        'the target release v9.9.9 is not one kubectl-aso knows',
      );
      expect((error as UnknownRelease).hint).toBe('known releases: v2.1.0, v2.2.0, v2.3.0');
    }
    expect(() => hopsBetween(catalog, 'v2.3.0', 'v2.1.0')).toThrow(NotAnUpgrade);
  });
});

describe('locationsOf', () => {
  it('finds every place a catalog path is set, through lists and maps', () => {
    const object = {
      spec: { rules: [{ gone: 1 }, {}, { gone: null }, { gone: 'x' }], labels: { a: '1', 'b c': '2' } },
    };
    expect(locationsOf(object, 'spec.rules[].gone').map(pathText)).toEqual([
      'spec.rules[0].gone',
      'spec.rules[3].gone',
    ]);
    expect(locationsOf(object, 'spec.labels{}').map(pathText)).toEqual([
      'spec.labels.a',
      'spec.labels["b c"]',
    ]);
    expect(locationsOf(object, 'spec.rules.gone')).toEqual([]);
    expect(locationsOf({ spec: { rules: 'not a list' } }, 'spec.rules[].gone')).toEqual([]);
  });
});

describe('manifest findings', () => {
  it('names each removed or retyped property a manifest sets, with its line, in the hop that takes it', () => {
    const objects = manifest(
      'widget.yaml',
      [
        'apiVersion: things.azure.com/v1',
        'kind: Widget',
        'metadata: { name: w, namespace: app }',
        'spec:',
        '  tier: gold',
        '  rules:',
        '    - gone: 1',
        '    - kept: 2',
        '  labels:',
        '    a: "1"',
        '',
      ].join('\n'),
    );
    const report = checkUpgrade({ from: 'v2.1.0', to: 'v2.2.0', manifests: objects }, catalog);
    const findings = report.manifests?.findings ?? [];
    expect(findings.map((f) => [f.problem, f.path, f.line, f.hop])).toEqual([
      ['removed-property', 'spec.rules[0].gone', 7, 'v2.1.0 -> v2.2.0'],
      ['removed-property', 'spec.tier', 5, 'v2.1.0 -> v2.2.0'],
      ['retyped-property', 'spec.labels.a', 10, 'v2.1.0 -> v2.2.0'],
    ]);
    expect(findings[2]?.fix).toBe('write spec.labels.a as an integer');
    expect(report.blocking).toBe(3);
    expect(upgradeCheckExit(report)).toBe('upgradeBlocked');
  });

  it('gives an object at a removed version the migrate -f command to the storage API version, once', () => {
    const objects = manifest(
      'rg.yaml',
      'apiVersion: resources.azure.com/v1alpha1api20200601\nkind: ResourceGroup\nmetadata:\n  name: rg\nspec:\n  location: westeurope\n',
    );
    const findings = checkUpgrade({ from: 'v2.1.0', to: 'v2.3.0', manifests: objects }, catalog).manifests
      ?.findings;
    expect(findings).toEqual([
      {
        hop: 'v2.2.0 -> v2.3.0',
        file: join(dir, 'rg.yaml'),
        line: 1,
        object: 'ResourceGroup/rg',
        apiVersion: 'resources.azure.com/v1alpha1api20200601',
        problem: 'removed-version',
        detail: 'v2.3.0 no longer serves v1alpha1api20200601',
        fix: `kubectl aso migrate -f ${join(dir, 'rg.yaml')} --to v1api20200601`,
        values: 'kept',
      },
    ]);
  });

  it('says when a removed version is one kubectl-aso cannot convert, instead of printing a command that fails', () => {
    const objects = manifest(
      'widget-v1.yaml',
      'apiVersion: things.azure.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec: {}\n',
    );
    const [finding] =
      checkUpgrade({ from: 'v2.2.0', to: 'v2.3.0', manifests: objects }, catalog).manifests?.findings ?? [];
    expect(finding?.values).toBe('unknown');
    expect(finding?.fix).toBe('v2.3.0 does not serve Widget: remove the object');
  });

  it('names an object of a kind a hop removes, once', () => {
    const withoutGadget: ReleaseCatalog = {
      ...catalog,
      hops: catalog.hops.map((hop, i) =>
        i === 0 ? { ...hop, removedKinds: ['things.azure.com/Gadget'] } : hop,
      ),
    };
    const objects = manifest(
      'gadget.yaml',
      'apiVersion: things.azure.com/v1\nkind: Gadget\nmetadata:\n  name: g\n',
    );
    const findings = checkUpgrade({ from: 'v2.1.0', to: 'v2.3.0', manifests: objects }, withoutGadget)
      .manifests?.findings;
    expect(findings?.map((f) => [f.problem, f.line, f.hop, f.detail])).toEqual([
      ['removed-kind', 2, 'v2.1.0 -> v2.2.0', 'v2.2.0 no longer has things.azure.com/Gadget'],
    ]);
  });

  it('is ready when nothing a manifest uses changes', () => {
    const objects = manifest(
      'fine.yaml',
      'apiVersion: things.azure.com/v2\nkind: Widget\nmetadata:\n  name: w\n',
    );
    const report = checkUpgrade({ from: 'v2.1.0', to: 'v2.3.0', manifests: objects }, catalog);
    expect(report.manifests).toEqual({ objects: 1, findings: [] });
    expect(upgradeCheckExit(report)).toBe('ok');
  });
});

describe('on the shipped catalog', () => {
  it("flags AKS's v1api20240402preview going from v2.18.0 to v2.20.0, with the migrate command the core now runs", () => {
    const objects = manifest(
      'aks.yaml',
      'apiVersion: containerservice.azure.com/v1api20240402preview\nkind: ManagedCluster\nmetadata:\n  name: aks\nspec:\n  location: westeurope\n',
    );
    const report = checkUpgrade({ from: 'v2.18.0', to: 'v2.20.0', manifests: objects }, releaseCatalog);
    expect(report.hops[0]?.spans).toEqual(['v2.19']);
    expect(report.hops[0]?.removedVersions['containerservice.azure.com/ManagedCluster']).toEqual([
      'v1api20240402preview',
    ]);
    expect(report.manifests?.findings.map((f) => [f.problem, f.values, f.fix])).toEqual([
      [
        'removed-version',
        'kept',
        `kubectl aso migrate -f ${report.manifests?.findings[0]?.file} --to v1api20250801`,
      ],
    ]);
    expect(report.manifests?.findings[0]?.file).toMatch(/\/aks\.yaml$/);
  });

  it('says to rewrite by hand a removed version the core does not hold (Fleet v1api20230315preview, gone in v2.18.0)', () => {
    const objects = manifest(
      'fleet.yaml',
      'apiVersion: containerservice.azure.com/v1api20230315preview\nkind: Fleet\nmetadata:\n  name: fleet\nspec:\n  location: westeurope\n',
    );
    const report = checkUpgrade({ from: 'v2.13.0', to: 'v2.18.0', manifests: objects }, releaseCatalog);
    const [finding] = report.manifests?.findings ?? [];
    expect(finding?.problem).toBe('removed-version');
    expect(finding?.values).toBe('unknown');
    expect(finding?.fix).toMatch(
      /^rewrite it at containerservice\.azure\.com\/\S+ by hand \(kubectl-aso cannot convert v1api20230315preview\)$/,
    );
  });
});
