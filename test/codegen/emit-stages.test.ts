import { describe, expect, it } from 'vitest';
import { hashHeader } from '../../src/codegen/emit/code.ts';
import type { GeneratorConfig } from '../../src/codegen/model/config.ts';
import { modelStages } from '../../src/codegen/pipeline.ts';
import { stage } from '../../src/codegen/stage.ts';
import { addCompatibilityVersions } from '../../src/codegen/stages/add-compatibility-versions.ts';
import { emitArmPayloads } from '../../src/codegen/stages/emit-arm-payloads.ts';
import { emitConversionPlans } from '../../src/codegen/stages/emit-conversion-plans.ts';
import { emitCrds } from '../../src/codegen/stages/emit-crds.ts';
import { emitRegistry } from '../../src/codegen/stages/emit-registry.ts';
import { emitResourceCatalog } from '../../src/codegen/stages/emit-resource-catalog.ts';
import { emitTests } from '../../src/codegen/stages/emit-tests.ts';
import { loadConfig } from '../../src/codegen/stages/load-config.ts';
import { fileText } from '../../src/codegen/state.ts';
import { crdArchiveName, crdArchiveSuffix } from '../../src/lib/crds/crd-archive.ts';
import { GeneratedCrdStore } from '../../src/lib/crds/generated-crds.ts';
import { expectGoldenCode, generate } from './support.ts';

describe('addCompatibilityVersions', () => {
  const upTo = modelStages.slice(0, modelStages.indexOf(addCompatibilityVersions) + 1);

  it('clones the configured GA packages under the beta and alpha prefixes, types shared', () => {
    const { state } = generate(upTo);
    const pg = state.packages.filter(
      (p) => p.group === 'dbforpostgresql' && p.armApiVersion === '2021-06-01',
    );
    expect(pg.map((p) => [p.version, p.prefix, p.storage])).toEqual([
      ['v1api20210601', 'ga', false],
      ['v1alpha1api20210601', 'alpha', false],
      ['v1beta20210601', 'beta', false],
    ]);
    expect(pg[1]?.types).toBe(pg[0]?.types);
    expect(pg[2]?.resources).toBe(pg[0]?.resources);
    const storage = state.packages.filter((p) => p.group === 'storage').map((p) => p.version);
    expect(storage).toContain('v1beta20210401');
    expect(storage).not.toContain('v1alpha1api20210401');
  });

  it('fails naming the group and version when the config names one without schemas', () => {
    const edited = stage({
      id: 'loadConfig',
      description: 'Load an edited config',
      needs: [],
      run: (s) => {
        const config = generate([loadConfig]).state.config as GeneratorConfig;
        s.config = {
          ...config,
          compatibility: [{ group: 'sql', apiVersions: ['2019-01-01'], prefixes: ['beta'] }],
        };
      },
    });
    expect(() => generate([edited, ...upTo.slice(1)])).toThrow(
      /addCompatibilityVersions.*no schemas for group sql at 2019-01-01/,
    );
  });
});

describe('emitArmPayloads', () => {
  const { state } = generate([...modelStages, emitArmPayloads]);

  it('writes arm.ts for every API package and none for storage variants', () => {
    const arm = [...state.files.keys()].filter((f) => f.endsWith('/arm.ts'));
    const api = state.packages.filter((p) => !p.storage).map((p) => `${p.group}/${p.version}/arm.ts`);
    expect(arm.sort()).toEqual(api.sort());
  });

  it('emits layouts with per-type field shapes as recorded (golden)', () => {
    expectGoldenCode(
      'resources-v1api20200601-arm.ts.golden',
      fileText(state, 'resources/v1api20200601/arm.ts'),
    );
    expectGoldenCode('kusto-v1api20230815-arm.ts.golden', fileText(state, 'kusto/v1api20230815/arm.ts'));
  });
});

describe('emitResourceCatalog', () => {
  const { state } = generate([...modelStages, emitResourceCatalog]);

  it('emits one entry per kind with scope, owners, hub, immutable and write-only paths (golden)', () => {
    const catalog = fileText(state, 'catalog.ts');
    expect(catalog).toContain('"armType": "Microsoft.Authorization/roleAssignments"');
    expectGoldenCode('catalog.ts.golden', catalog);
  });
});

describe('emitTests', () => {
  const { state } = generate([...modelStages, emitTests]);

  it('writes shapes for every group, naming every package, and one test file per kind', () => {
    const groups = [...new Set(state.packages.map((p) => p.group))];
    expect([...state.files.keys()].filter((f) => f.endsWith('/shapes.ts')).sort()).toEqual(
      groups.map((g) => `${g}/shapes.ts`).sort(),
    );
    for (const pkg of state.packages)
      expect(fileText(state, `${pkg.group}/shapes.ts`)).toContain(`    "${pkg.version}": {`);
    expect([...state.files.keys()].filter((f) => f.endsWith('/arbitraries.ts'))).toEqual([]);
    const tests = [...state.files.keys()].filter((f) => f.endsWith('.conversion.test.ts'));
    expect(tests).toContain('kusto/tests/ClustersDatabase.conversion.test.ts');
  });

  it('emits round-trip, storage, reliability and ARM tests and shapes as recorded (golden)', () => {
    const test = fileText(state, 'resources/tests/ResourceGroup.conversion.test.ts');
    expect(test).toContain('v1api20200601storage (old storage) -> hub -> v1api20200601storage loses nothing');
    expectGoldenCode('resources-ResourceGroup.conversion.test.ts.golden', test);
    expectGoldenCode('resources-shapes.ts.golden', fileText(state, 'resources/shapes.ts'));
  });

  it('draws exactly one option of a oneOf root, and emits a test per config rename', () => {
    const kusto = fileText(state, 'kusto/shapes.ts') ?? '';
    // The entry is the description itself or the name of a shared one (`t3`) declared above the table.
    const entry = /"ClustersDatabase_Spec": (t\d+|\{.*\}),\n/.exec(kusto)?.[1] ?? '';
    const described = entry.startsWith('t')
      ? new RegExp(`const ${entry}: TypeShape = (.*);\n`).exec(kusto)?.[1]
      : entry;
    expect(JSON.parse(described ?? 'null')).toMatchObject({
      required: ['owner'],
      oneOf: ['readWriteDatabase', 'readOnlyFollowingDatabase'],
    });
    const pg = fileText(state, 'dbforpostgresql/tests/FlexibleServer.conversion.test.ts') ?? '';
    expect(pg).toContain(
      'Network.privateDnsZoneArmResourceId -> privateDnsZoneResourceId (2023-06-01) at spec.network',
    );
    expect(pg).toContain('type Storage -> ServerStorage (2023-06-01) at spec.storage');
  });

  it('sets an owner in golden exemplars by name only, as the CRD CEL rule requires', () => {
    const sql = fileText(state, 'sql/tests/ServersDatabase.conversion.test.ts') ?? '';
    expect(sql).toContain('"owner":{"name":"1002"}');
    expect(sql).not.toContain('"armId"');
  });
});

describe('emitCrds', () => {
  const { state } = generate([...modelStages, emitCrds]);
  const archives = new GeneratedCrdStore({
    description: 'the emitCrds stage',
    groups: () =>
      [...state.files.keys()]
        .filter((f) => f.startsWith('crds/') && f.endsWith(crdArchiveSuffix))
        .map((f) => f.slice('crds/'.length, -crdArchiveSuffix.length))
        .sort(),
    read: (group) => state.files.get(`crds/${crdArchiveName(group)}`) as Uint8Array,
  });

  it('writes one compressed archive per API group and nothing else', () => {
    const crds = [...state.files.keys()].filter((f) => f.startsWith('crds/'));
    expect(crds).toContain('crds/sql.azure.com.yaml.br');
    expect(crds.filter((f) => !f.endsWith('.azure.com.yaml.br'))).toEqual([]);
    expect(archives.ofGroup('sql.azure.com').map((crd) => crd.fileName)).toEqual([
      'sql.azure.com_servers.yaml',
      'sql.azure.com_serversdatabases.yaml',
      'sql.azure.com_serversfirewallrules.yaml',
    ]);
  });

  it('starts each archive with the generated marker, in the decompressed YAML', () => {
    for (const group of archives.groups())
      expect(fileText(state, `crds/${crdArchiveName(group)}`)?.split('\n', 1)[0]).toBe(
        hashHeader().trimEnd(),
      );
  });

  it('writes the same bytes on every run', () => {
    const again = generate([...modelStages, emitCrds]).state;
    for (const [path, content] of state.files) expect(again.files.get(path), path).toEqual(content);
  });

  it('writes the CRD of ServersFirewallRule as recorded (golden)', () => {
    const crd = archives.byFileName('sql.azure.com_serversfirewallrules.yaml');
    expect(crd?.kind).toBe('ServersFirewallRule');
    expectGoldenCode('crds-sql.azure.com_serversfirewallrules.yaml.golden', hashHeader() + (crd?.yaml ?? ''));
  });
});

describe('emitRegistry', () => {
  const { state } = generate([...modelStages, emitConversionPlans, emitRegistry]);

  it('emits the hub and up/down steps of every kind as recorded (golden)', () => {
    const registry = fileText(state, 'registry.ts');
    expect(registry).toContain('ServersDatabase');
    expectGoldenCode('registry.ts.golden', registry);
  });
});
