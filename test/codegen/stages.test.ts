import { describe, expect, it } from 'vitest';
import type { PlannedConversion } from '../../src/codegen/conversions/planner.ts';
import { type GeneratorConfig, validateConfig } from '../../src/codegen/model/config.ts';
import { oneOfOptions } from '../../src/codegen/model/types.ts';
import { emitStages, modelStages } from '../../src/codegen/pipeline.ts';
import { stage } from '../../src/codegen/stage.ts';
import { loadConfig } from '../../src/codegen/stages/load-config.ts';
import { fileText } from '../../src/codegen/state.ts';
import { expectGoldenCode, generate } from './support.ts';

const conversionsOf = (state: ReturnType<typeof generate>['state']) =>
  (state.plans ?? []).flatMap((p) => p.types as PlannedConversion[]);

describe('the generator stages on the repository schemas', () => {
  const { state, log } = generate();

  it('runs every stage in order, reporting each', () => {
    expect(log[0]).toBe(`stage 1/${log.length}: Load the generator config`);
    expect(log).toContain(
      `stage 10/${log.length}: Add v1beta and v1alpha1api compatibility packages (seed 003, option 3b)`,
    );
  });

  it('builds GA, compatibility and storage packages named as ASO names them', () => {
    const versions = state.packages
      .filter((p) => p.group === 'dbforpostgresql')
      .map((p) => p.version)
      .sort();
    expect(versions).toEqual([
      'v1alpha1api20210601',
      'v1alpha1api20210601storage',
      'v1api20210601',
      'v1api20210601storage',
      'v1api20221201',
      'v1api20221201storage',
      'v1api20230601',
      'v1api20230601storage',
      'v1beta20210601',
      'v1beta20210601storage',
    ]);
    const rg = state.packages.find((p) => p.group === 'resources' && p.version === 'v1api20200601');
    expect(rg?.resources.map((r) => r.kind)).toEqual(['ResourceGroup']);
  });

  it('flattens ARM properties into the spec and drops read-only ones', () => {
    const pkg = state.packages.find((p) => p.group === 'dbforpostgresql' && p.version === 'v1api20210601')!;
    const spec = pkg.types.get('FlexibleServer_Spec');
    const names = spec?.kind === 'object' ? spec.properties.map((p) => p.name) : [];
    expect(names).toEqual(
      expect.arrayContaining(['azureName', 'owner', 'location', 'sku', 'administratorLogin', 'storage']),
    );
    expect(names).not.toContain('fullyQualifiedDomainName');
    const status = pkg.types.get('FlexibleServer_STATUS');
    expect(status?.kind === 'object' && status.properties.map((p) => p.name)).toEqual(
      expect.arrayContaining(['conditions', 'fullyQualifiedDomainName']),
    );
  });

  it('makes storage variants all-optional with enums reduced to their underlying type', () => {
    const pkg = state.packages.find(
      (p) => p.group === 'dbforpostgresql' && p.version === 'v1api20210601storage',
    )!;
    const sku = pkg.types.get('Sku');
    expect(sku?.kind === 'object' && sku.properties.every((p) => !p.required)).toBe(true);
    expect(sku?.kind === 'object' && sku.properties.find((p) => p.name === 'tier')?.type).toEqual({
      kind: 'primitive',
      primitive: 'string',
    });
  });

  it('applies config renames of properties and object types on the right link only', () => {
    const network = conversionsOf(state).find((c) => c.functionName === 'Network_to_v1api20230601storage');
    expect(network?.steps).toContainEqual(
      expect.objectContaining({
        kind: 'assign',
        source: 'privateDnsZoneArmResourceId',
        destination: 'privateDnsZoneResourceId',
      }),
    );
    const spec = conversionsOf(state).find(
      (c) => c.functionName === 'FlexibleServer_Spec_to_v1api20230601storage',
    );
    expect(spec?.steps).toContainEqual(
      expect.objectContaining({
        source: 'storage',
        value: expect.objectContaining({ destType: 'ServerStorage' }),
      }),
    );
  });

  it('records which handler claimed each property', () => {
    const handlers = new Set(conversionsOf(state).flatMap((c) => c.steps.map((s) => s.handler)));
    expect([...handlers].sort()).toEqual([
      'assignCollection',
      'assignEnum',
      'assignObject',
      'assignPrimitive',
      // MySQL's user-assigned identities: a changed type its hook converts is skipped by the generated code.
      'hook',
      'originalVersion',
      'recallFromBag',
      'stashInBag',
    ]);
  });

  it('carries an enum spelling table only into API versions, as the operator canonicalises only there', () => {
    const enumValues = conversionsOf(state).flatMap((c) =>
      c.steps.flatMap((s) =>
        s.kind === 'assign' && s.value.kind === 'enum' ? [{ direction: c.direction, value: s.value }] : [],
      ),
    );
    const withSpellings = enumValues.filter((e) => e.value.spellings !== undefined);
    expect(withSpellings.length).toBeGreaterThan(0);
    expect(new Set(withSpellings.map((e) => e.direction))).toEqual(new Set(['fromStorage']));
    expect(enumValues.filter((e) => e.direction === 'toStorage').every((e) => !e.value.spellings)).toBe(true);
    const emitted = fileText(state, 'storage/conversion-plans.ts') ?? '';
    expect(emitted).toMatch(/\["=","accessTier",\{"spell":\["Hot","Cool"\]\}\]/);
  });

  it('emits the conversions of a storage package as recorded (golden)', () => {
    expectGoldenCode(
      'resources-conversion-plans.ts.golden',
      fileText(state, 'resources/conversion-plans.ts'),
    );
    expectGoldenCode(
      'sql-v1api20140401storage-hooks.ts.golden',
      fileText(state, 'sql/v1api20140401storage/hooks.ts'),
    );
    expectGoldenCode(
      'sql-v1api20140401storage-types.ts.golden',
      fileText(state, 'sql/v1api20140401storage/types.ts'),
    );
  });

  it('writes types.ts only for the packages a hooks.ts refers to', () => {
    const types = [...state.files.keys()].filter((f) => f.endsWith('/types.ts')).sort();
    expect(types).toEqual(['sql/v1api20140401storage/types.ts', 'sql/v1api20211101storage/types.ts']);
    const hooks = fileText(state, 'sql/v1api20140401storage/hooks.ts') ?? '';
    expect(hooks).toContain("from './types.ts'");
    expect(hooks).toContain("from '../v1api20211101storage/types.ts'");
  });

  it('emits the same files on a second run (deterministic)', () => {
    const again = generate().state;
    expect([...again.files.keys()]).toEqual([...state.files.keys()]);
    for (const [file, content] of state.files) expect(again.files.get(file), file).toEqual(content);
  });
});

describe('the review checks of the generator', () => {
  const withConfig = (edit: (config: GeneratorConfig) => GeneratorConfig, emit = false) => {
    const loaded = generate([loadConfig]).state.config!;
    const edited = stage({
      id: 'loadConfig',
      description: 'Load an edited config',
      needs: [],
      run: (s) => {
        s.config = edit(loaded);
      },
    });
    return generate([edited, ...modelStages.slice(1), ...(emit ? emitStages : [])]);
  };

  it('fails naming the stage and the property when a removal is not acknowledged', () => {
    expect(() =>
      withConfig((c) => ({ ...c, removals: c.removals.filter((r) => r.group !== 'authorization') })),
    ).toThrow(
      /checkPlans.*RoleAssignment_Spec\.canDelegate exists at 2020-08-01-preview but not at 2022-04-01/s,
    );
  });

  it('fails when a type change no rule converts has no hook', () => {
    expect(() =>
      withConfig((c) => ({ ...c, hooks: c.hooks.filter((h) => h.type !== 'ServersDatabase_STATUS') })),
    ).toThrow(/ServersDatabase_STATUS\.maxSizeBytes changes from string to integer.*add a hook/s);
  });

  it('publishes configured ARM API versions under the plain prefix, the plain one the hub at its date', () => {
    const { state } = withConfig((c) => ({
      ...c,
      published: [{ group: 'storage', apiVersions: ['2023-01-01'], prefixes: ['ga', 'plain'] }],
    }));
    const storage = state.packages.filter((p) => p.group === 'storage' && !p.storage).map((p) => p.version);
    expect(storage).toEqual(expect.arrayContaining(['v1api20230101', 'v20230101']));
    const account = state.graph?.kinds.find((k) => k.kind === 'StorageAccount');
    expect(account?.hub).toBe('v20230101storage');
    expect(account?.next.get('v1api20230101storage')).toBe('v20230101storage');
  });

  it('builds a version published only under the plain prefix without a v1api twin', () => {
    const { state } = withConfig((c) => ({
      ...c,
      published: [{ group: 'dbforpostgresql', apiVersions: ['2023-06-01'], prefixes: ['plain'] }],
    }));
    const versions = state.packages.filter((p) => p.group === 'dbforpostgresql').map((p) => p.version);
    expect(versions).toContain('v20230601');
    expect(versions).not.toContain('v1api20230601');
    expect(state.graph?.kinds.find((k) => k.kind === 'FlexibleServer')?.hub).toBe('v20230601storage');
  });

  it('gives each prefix at a date only the kinds the operator serves under it, and only their types', () => {
    const { state } = withConfig((c) => ({
      ...c,
      published: [
        {
          group: 'storage',
          apiVersions: ['2023-01-01'],
          prefixes: ['ga', 'plain'],
          types: ['Microsoft.Storage/storageAccounts'],
        },
        {
          group: 'storage',
          apiVersions: ['2023-01-01'],
          prefixes: ['plain'],
          types: ['Microsoft.Storage/storageAccounts/blobServices/containers'],
        },
      ],
    }));
    const at = (version: string) =>
      state.packages.find((p) => p.group === 'storage' && p.version === version);
    const kinds = (version: string) => at(version)?.resources.map((r) => r.kind);
    expect(kinds('v20230101')).toEqual(['StorageAccount', 'StorageAccountsBlobServicesContainer']);
    expect(kinds('v20230101storage')).toEqual(kinds('v20230101'));
    expect(kinds('v1api20230101')).toContain('StorageAccount');
    expect(kinds('v1api20230101')).toContain('StorageAccountsBlobService');
    expect(kinds('v1api20230101')).not.toContain('StorageAccountsBlobServicesContainer');
    // A type only a left-out kind reaches is left out with it.
    expect(at('v20230101')?.types.has('ImmutableStorageWithVersioning')).toBe(true);
    expect(at('v1api20230101')?.types.has('ImmutableStorageWithVersioning')).toBe(false);
    expect(at('v20230101')?.types.has('CorsRules')).toBe(false);
    expect(at('v1api20230101')?.types.has('CorsRules')).toBe(true);
    const container = state.graph?.kinds.find((k) => k.kind === 'StorageAccountsBlobServicesContainer');
    expect(container?.apiVersions).toContain('v20230101');
    expect(container?.apiVersions).not.toContain('v1api20230101');
  });

  it('names a kind as configured where the operator departs from the naming rule', () => {
    const kindsOf = (kinds: Record<string, string>) =>
      new Set(
        withConfig((c) => ({ ...c, kinds }))
          .state.packages.filter((p) => p.group === 'kusto')
          .flatMap((p) => p.resources.map((r) => r.kind)),
      );
    expect(kindsOf({})).toEqual(new Set(['Cluster', 'ClustersDatabase']));
    expect(kindsOf({ 'Microsoft.Kusto/clusters/databases': 'Database' })).toEqual(
      new Set(['Cluster', 'Database']),
    );
  });

  it('fails clearly when a published version has no schemas', () => {
    expect(() =>
      withConfig((c) => ({
        ...c,
        published: [{ group: 'storage', apiVersions: ['2099-01-01'], prefixes: ['ga', 'plain'] }],
      })),
    ).toThrow(/published: no schemas for group storage at 2099-01-01/);
  });

  it('gives every resource spec, a oneOf root included, an operatorSpec the ARM body never carries', () => {
    const { state } = withConfig((c) => c);
    let oneOfRoots = 0;
    for (const pkg of state.packages.filter((p) => !p.storage)) {
      for (const resource of pkg.resources) {
        const spec = pkg.types.get(resource.specType);
        const prop =
          spec?.kind === 'object' ? spec.properties.find((p) => p.name === 'operatorSpec') : undefined;
        if (resource.oneOf) {
          oneOfRoots++;
          // Beside the options, as the operator's Kusto Database has it, and never one of them.
          expect(spec?.kind === 'object' && oneOfOptions(spec).map((p) => p.name)).toEqual(
            resource.oneOf.map((leaf) => leaf.property),
          );
        }
        expect(prop, `${pkg.version} ${resource.kind}`).toMatchObject({ arm: 'none', required: false });
        const operatorSpec = pkg.types.get(`${resource.kind}OperatorSpec`);
        expect(operatorSpec?.kind === 'object' && operatorSpec.properties.map((p) => p.name)).toEqual([
          'configMapExpressions',
          'secretExpressions',
        ]);
      }
    }
    expect(oneOfRoots).toBeGreaterThan(0);
  });

  it("adds the operator's own settings the config lists, as an enum when it lists values", () => {
    const { state } = withConfig((c) => ({
      ...c,
      operatorSpecProperties: [
        {
          armType: 'Microsoft.Authorization/roleAssignments',
          apiVersions: ['2022-04-01'],
          name: 'namingConvention',
          enum: ['random', 'stable'],
          description: 'How the operator makes a name.',
        },
      ],
    }));
    const at = (version: string) =>
      state.packages.find((p) => p.group === 'authorization' && p.version === version)!;
    const def = at('v1api20220401').types.get('RoleAssignmentOperatorSpec');
    expect(def?.kind === 'object' && def.properties.map((p) => [p.name, p.type])).toEqual([
      [
        'configMapExpressions',
        { kind: 'array', element: { kind: 'object', name: 'core_DestinationExpression' } },
      ],
      ['namingConvention', { kind: 'enum', name: 'RoleAssignmentOperatorSpecNamingConvention' }],
      [
        'secretExpressions',
        { kind: 'array', element: { kind: 'object', name: 'core_DestinationExpression' } },
      ],
    ]);
    expect(at('v1api20220401').types.get('RoleAssignmentOperatorSpecNamingConvention')).toMatchObject({
      kind: 'enum',
      values: ['random', 'stable'],
    });
    const storage = at('v1api20220401storage').types.get('RoleAssignmentOperatorSpec');
    expect(
      storage?.kind === 'object' && storage.properties.find((p) => p.name === 'namingConvention')?.type,
    ).toEqual({ kind: 'primitive', primitive: 'string' });
    const preview = at('v1api20200801preview').types.get('RoleAssignmentOperatorSpec');
    expect(preview?.kind === 'object' && preview.properties.map((p) => p.name)).not.toContain(
      'namingConvention',
    );
  });

  it('adds the configured config map and secret exports at the listed ARM API versions only', () => {
    const { state } = withConfig((c) => ({
      ...c,
      operatorExports: [
        {
          armType: 'Microsoft.DBforPostgreSQL/flexibleServers',
          apiVersions: ['2022-12-01', '2023-06-01'],
          configMaps: ['fullyQualifiedDomainName'],
          secrets: ['fullyQualifiedDomainName'],
        },
      ],
    }));
    const operatorSpecAt = (version: string) => {
      const pkg = state.packages.find((p) => p.group === 'dbforpostgresql' && p.version === version)!;
      const def = pkg.types.get('FlexibleServerOperatorSpec');
      return { pkg, names: def?.kind === 'object' ? def.properties.map((p) => p.name) : [] };
    };
    const at = operatorSpecAt('v1api20221201');
    expect(at.names).toEqual(['configMapExpressions', 'configMaps', 'secretExpressions', 'secrets']);
    const configMaps = at.pkg.types.get('FlexibleServerOperatorConfigMaps');
    expect(configMaps?.kind === 'object' && configMaps.properties).toEqual([
      expect.objectContaining({
        name: 'fullyQualifiedDomainName',
        type: { kind: 'object', name: 'genruntime_ConfigMapDestination' },
      }),
    ]);
    const destination = at.pkg.types.get('genruntime_SecretDestination');
    // The Go field order of genruntime's SecretDestination: the operator's bag entries keep it.
    expect(destination?.kind === 'object' && destination.properties.map((p) => p.name)).toEqual([
      'name',
      'key',
      'annotations',
      'labels',
    ]);
    expect(operatorSpecAt('v1api20210601').names).toEqual(['configMapExpressions', 'secretExpressions']);
  });

  describe("the operator's type transformations, as the config selects them (issue 8, item 3)", () => {
    const none = {
      armReferences: [],
      secrets: [],
      secretMaps: [],
      fromConfig: [],
      userAssignedIdentities: [],
    };
    const { state } = withConfig((c) => ({
      ...c,
      transformations: {
        ...none,
        armReferences: [
          {
            group: 'dbforpostgresql',
            type: 'Network',
            apiVersions: [],
            properties: ['delegatedSubnetResourceId'],
            wellKnown: false,
            compat: false,
          },
        ],
        secrets: [
          {
            group: 'dbforpostgresql',
            type: 'FlexibleServer_Spec',
            apiVersions: [],
            properties: ['administratorLogin'],
          },
        ],
        fromConfig: [
          {
            group: 'authorization',
            type: 'RoleAssignment_Spec',
            apiVersions: [],
            properties: ['principalId'],
          },
        ],
        userAssignedIdentities: [
          { group: 'storage', type: 'Identity', apiVersions: [], properties: ['userAssignedIdentities'] },
        ],
      },
    }));
    const typeAt = (group: string, version: string, name: string) => {
      const def = state.packages.find((p) => p.group === group && p.version === version)?.types.get(name);
      return def?.kind === 'object' ? def.properties : [];
    };

    it('turns an ARM ID into <name>Reference on the spec side of every version, storage too; the status keeps the ID', () => {
      for (const version of ['v1api20210601', 'v1beta20210601', 'v1api20230601', 'v1api20230601storage']) {
        const network = typeAt('dbforpostgresql', version, 'Network');
        expect(
          network.find((p) => p.name === 'delegatedSubnetResourceReference'),
          version,
        ).toMatchObject({
          type: { kind: 'object', name: 'genruntime_ResourceReference' },
          armAs: { how: 'reference', name: 'delegatedSubnetResourceId' },
        });
        expect(network.map((p) => p.name)).not.toContain('delegatedSubnetResourceId');
      }
      expect(typeAt('dbforpostgresql', 'v1api20230601', 'Network_STATUS').map((p) => p.name)).toContain(
        'delegatedSubnetResourceId',
      );
      expect(
        typeAt('dbforpostgresql', 'v1api20230601', 'genruntime_ResourceReference').map((p) => p.name),
      ).toEqual(['group', 'kind', 'name', 'armId']);
      const step = conversionsOf(state)
        .find((c) => c.functionName === 'Network_to_v1api20230601storage')
        ?.steps.find((s) => 'source' in s && s.source === 'delegatedSubnetResourceReference');
      expect(step).toMatchObject({ destination: 'delegatedSubnetResourceReference' });
    });

    it('makes a secret a secret reference, and drops it from the status', () => {
      const spec = typeAt('dbforpostgresql', 'v1api20221201', 'FlexibleServer_Spec');
      expect(spec.find((p) => p.name === 'administratorLogin')).toMatchObject({
        type: { kind: 'object', name: 'genruntime_SecretReference' },
        armAs: { how: 'secret', name: 'administratorLogin' },
      });
      expect(
        typeAt('dbforpostgresql', 'v1api20221201', 'FlexibleServer_STATUS').map((p) => p.name),
      ).not.toContain('administratorLogin');
    });

    it('adds <name>FromConfig beside <name>, and turns an identity map into a list of references', () => {
      const names = typeAt('authorization', 'v1api20220401', 'RoleAssignment_Spec').map((p) => p.name);
      expect(names.slice(names.indexOf('principalId'), names.indexOf('principalId') + 2)).toEqual([
        'principalId',
        'principalIdFromConfig',
      ]);
      const identity = typeAt('storage', 'v1api20230101', 'Identity').find(
        (p) => p.name === 'userAssignedIdentities',
      );
      expect(identity).toMatchObject({
        type: { kind: 'array', element: { kind: 'object', name: 'UserAssignedIdentityDetails' } },
        armAs: { how: 'identities', name: 'userAssignedIdentities' },
      });
      expect(
        typeAt('storage', 'v1api20230101', 'Identity_STATUS').find((p) => p.name === 'userAssignedIdentities')
          ?.type.kind,
      ).toBe('map');
    });

    it('fails generation on an entry that selects nothing, naming it', () => {
      expect(() =>
        withConfig((c) => ({
          ...c,
          transformations: {
            ...none,
            secrets: [{ group: 'sql', type: 'Server_Spec', apiVersions: [], properties: ['nosuchPassword'] }],
          },
        })),
      ).toThrow(
        /addSecretReferences.*transformations\.secrets\[0\]: sql Server_Spec\.nosuchPassword is in no API package/s,
      );
    });

    it('validates the config section', () => {
      const base = { prefixes: { ga: 'a', plain: 'p', beta: 'b', alpha: 'c' }, groupSuffix: 'x' };
      expect(() =>
        validateConfig({
          ...base,
          transformations: { secrets: [{ group: 'g', type: 'T', properties: [] }] },
        }),
      ).toThrow('transformations.secrets[0].properties: expected at least one property');
      expect(() =>
        validateConfig({
          ...base,
          transformations: {
            armReferences: [{ group: 'g', type: 'T', properties: ['xId'], wellKnown: 'yes' }],
          },
        }),
      ).toThrow('transformations.armReferences[0].wellKnown: expected true or false');
      expect(() => validateConfig({ ...base, transformations: { secret: [] } })).toThrow(
        'transformations: unknown key "secret"',
      );
    });
  });

  it('rejects an operatorExports entry with an unknown key', () => {
    expect(() =>
      validateConfig({
        prefixes: { ga: 'a', plain: 'p', beta: 'b', alpha: 'c' },
        groupSuffix: 'x',
        operatorExports: [{ armType: 'A/b', configmaps: ['x'] }],
      }),
    ).toThrow('operatorExports[0]: unknown key "configmaps"');
  });

  it('takes GA alone in a published entry only for the types it names (GA alone is the default)', () => {
    const base = { prefixes: { ga: 'a', plain: 'p', beta: 'b', alpha: 'c' }, groupSuffix: 'x' };
    const entry = { group: 'cache', apiVersions: ['2025-04-01'], prefixes: ['ga'] };
    expect(() => validateConfig({ ...base, published: [entry] })).toThrow(
      'published[0].prefixes: GA alone is the default; name the types it is for',
    );
    const typed = validateConfig({
      ...base,
      published: [{ ...entry, types: ['Microsoft.Cache/redisEnterprise'] }],
    });
    expect(typed.published[0]?.types).toEqual(['Microsoft.Cache/redisEnterprise']);
  });

  it('rejects an operatorSpecProperties entry without a description, naming where', () => {
    expect(() =>
      validateConfig({
        prefixes: { ga: 'a', plain: 'p', beta: 'b', alpha: 'c' },
        groupSuffix: 'x',
        operatorSpecProperties: [{ armType: 'A/b', name: 'namingConvention', enum: ['random'] }],
      }),
    ).toThrow('operatorSpecProperties[0].description: expected a non-empty string');
  });

  it('rejects a kinds entry that is not an ARM type and kind name, or names a type no schema has', () => {
    const base = { prefixes: { ga: 'a', plain: 'p', beta: 'b', alpha: 'c' }, groupSuffix: 'x' };
    expect(() => validateConfig({ ...base, kinds: { 'clusters/databases': 'Database' } })).toThrow(
      'kinds: "clusters/databases" is not an ARM resource type',
    );
    expect(() =>
      validateConfig({ ...base, kinds: { 'Microsoft.Kusto/clusters/databases': 'database' } }),
    ).toThrow('kinds.Microsoft.Kusto/clusters/databases: "database" is not a kind name');
    expect(() =>
      withConfig((c) => ({ ...c, kinds: { ...c.kinds, 'Microsoft.Kusto/clusters/tables': 'Table' } })),
    ).toThrow(/buildApiPackages.*kinds: no schema describes Microsoft\.Kusto\/clusters\/tables/s);
  });

  it('rejects a groups entry that is not an ARM type and group name, and builds a type it names in that group', () => {
    const base = { prefixes: { ga: 'a', plain: 'p', beta: 'b', alpha: 'c' }, groupSuffix: 'x' };
    expect(() => validateConfig({ ...base, groups: { 'clusters/databases': 'kusto.data' } })).toThrow(
      'groups: "clusters/databases" is not an ARM resource type',
    );
    expect(() => validateConfig({ ...base, groups: { 'Microsoft.Kusto/clusters': 'Kusto.Data' } })).toThrow(
      'groups.Microsoft.Kusto/clusters: "Kusto.Data" is not a group name',
    );
    const moved = withConfig(
      (c) => ({
        ...c,
        groups: { 'Microsoft.Kusto/clusters': 'kusto.moved' },
      }),
      true,
    ).state;
    const holding = (armType: string) => [
      ...new Set(
        moved.packages.filter((p) => p.resources.some((r) => r.armType === armType)).map((p) => p.group),
      ),
    ];
    expect(holding('Microsoft.Kusto/clusters')).toEqual(['kusto.moved']);
    expect(holding('Microsoft.Kusto/clusters/databases')).toEqual(['kusto']);
    // A child's owner is its parent's kind in the parent's group.
    const database = moved.packages
      .flatMap((p) => p.resources)
      .find((r) => r.armType === 'Microsoft.Kusto/clusters/databases');
    expect(database?.owner).toEqual({ group: 'kusto.moved', kind: 'Cluster' });
    expect(fileText(moved, 'kusto.moved/conversion-plans.ts')).toContain('Cluster');
    expect(fileText(moved, 'registry.ts')).toContain(
      "import { plans as kusto_moved_plans } from './kusto.moved/conversion-plans.ts';",
    );
  });

  it('rejects unknown config keys, naming where', () => {
    expect(() =>
      validateConfig({
        prefixes: { ga: 'a', plain: 'p', beta: 'b', alpha: 'c' },
        groupSuffix: 'x',
        renamez: {},
      }),
    ).toThrow('config: unknown key "renamez"');
  });
});
