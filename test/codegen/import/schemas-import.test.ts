import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ImportedTypeWithoutCrd, importSchemas } from '../../../src/codegen/import/import-schemas.ts';
import {
  importKubernetesKinds,
  KubernetesKindNotFound,
} from '../../../src/codegen/import/kubernetes-kinds.ts';
import { moduleCrdFolder } from '../../../src/codegen/import/module-crds.ts';
import { OperatorGoSourceMissing } from '../../../src/codegen/import/operator-go.ts';
import { RealCrdMissing, RealCrds } from '../../../src/codegen/import/real-crds.ts';
import { derivedConfigFile } from '../../../src/codegen/stages/load-config.ts';
import { goToolchainPresent } from '../../fixtures/go-module.ts';
import { operatorGoModule } from '../../fixtures/operator-go-module.ts';
import { sharedData } from '../../fixtures/shared-data.ts';
import { repoRoot } from '../support.ts';

const real = sharedData(
  'real-aso-crds/v2.20.0',
  'test/codegen/import/schemas-import.test.ts (schema import)',
);
const goModule = operatorGoModule('test/codegen/import/schemas-import.test.ts (status enums)');
const real18 = sharedData(
  'real-aso-crds/v2.18.0',
  'test/codegen/import/schemas-import.test.ts (removed versions)',
);
const goModule18 = operatorGoModule(
  'test/codegen/import/schemas-import.test.ts (removed versions)',
  'v2.18.0',
);
const schemasDir = join(repoRoot, 'schemas');
const scratch = mkdtempSync(join(tmpdir(), 'schemas-import-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const goPresent = goToolchainPresent(
  'test/codegen/import/schemas-import.test.ts (CRDs made from the module)',
  'src/codegen/import/crd-maker',
);

describe('npm run schemas:import', () => {
  it.runIf(goPresent && goModule.present && goModule18.present)(
    "writes exactly the shipped schemas from CRDs made from the operator's Go module, with no release copy",
    async () => {
      const folder = await moduleCrdFolder('v2.20.0', undefined, () => {});
      const earlier = await moduleCrdFolder('v2.18.0', undefined, () => {}, { groupsItHas: true });
      try {
        const out = join(scratch, 'from-module');
        const result = importSchemas({
          crdDir: folder.path,
          schemasDir,
          outDir: out,
          operatorGoDir: goModule.path,
          earlierReleases: [{ release: 'v2.18.0', crdDir: earlier.path, operatorGoDir: goModule18.path }],
        });
        expect(result.written.length).toBeGreaterThan(30);
        // AKS 2024-04-02-preview, which v2.20.0 removed, comes from v2.18.0's CRDs.
        expect(
          result.written.filter((w) => w.file.includes('/2024-04-02-preview/')).map((w) => w.version),
        ).toEqual(['v1api20240402preview', 'v1api20240402preview', 'v1api20240402preview']);
        for (const file of [...result.written.map((w) => w.file), derivedConfigFile])
          expect(readFileSync(join(out, file), 'utf8'), `${file} differs from its import`).toBe(
            readFileSync(join(schemasDir, file), 'utf8'),
          );
      } finally {
        folder.dispose();
        earlier.dispose();
      }
    },
    600_000,
  );

  it.runIf(real.present)('writes exactly the shipped schemas, byte for byte, on every run', () => {
    const earlierReleases = [{ release: 'v2.18.0', crdDir: real18.path }];
    const first = importSchemas({
      crdDir: real.path,
      schemasDir,
      outDir: join(scratch, 'first'),
      earlierReleases,
    });
    const second = importSchemas({
      crdDir: real.path,
      schemasDir,
      outDir: join(scratch, 'second'),
      earlierReleases,
    });
    expect(first.written.length).toBeGreaterThan(0);
    expect(second).toEqual(first);
    for (const file of [...first.written.map((w) => w.file), derivedConfigFile]) {
      const shipped = readFileSync(join(schemasDir, file), 'utf8');
      expect(readFileSync(join(scratch, 'first', file), 'utf8'), `${file} differs from its import`).toBe(
        shipped,
      );
      expect(readFileSync(join(scratch, 'second', file), 'utf8')).toBe(shipped);
    }
  });

  it.runIf(real.present && goModule.present)(
    "writes the same bytes from the operator's Go types as from the schemas it replaces",
    () => {
      const out = join(scratch, 'with-go');
      const result = importSchemas({
        crdDir: real.path,
        schemasDir,
        outDir: out,
        operatorGoDir: goModule.path,
      });
      expect(result.goSource).toBe(true);
      for (const { file } of result.written)
        expect(readFileSync(join(out, file), 'utf8'), `${file} differs from its import`).toBe(
          readFileSync(join(schemasDir, file), 'utf8'),
        );
      const blob = JSON.parse(
        readFileSync(join(out, 'Microsoft.Storage/2025-06-01/storageAccounts.blobServices.json'), 'utf8'),
      );
      // A blob service is always `default`: the schema says so as ARM's do, and the generator drops azureName.
      expect(blob.resourceDefinitions.storageAccounts_blobServices.properties.name.enum).toEqual(['default']);
    },
  );

  it.runIf(real.present && goModule.present)(
    "takes a oneOf leaf's status enums from the operator's Go types, and keeps them when imported without",
    () => {
      const kusto = ['2023-08-15', '2024-04-13'].map((v) => `Microsoft.Kusto/${v}/clusters.databases.json`);
      const enumAt = (dir: string, file: string): unknown =>
        JSON.parse(readFileSync(join(dir, file), 'utf8')).definitions.ReadWriteDatabaseProperties.properties
          .provisioningState.enum;
      // The shipped schemas with the leaf's status enum values taken out: only the Go types can give them.
      const stripped = join(scratch, 'kusto-stripped');
      cpSync(schemasDir, stripped, { recursive: true });
      for (const file of kusto) {
        const doc = JSON.parse(readFileSync(join(stripped, file), 'utf8'));
        delete doc.definitions.ReadWriteDatabaseProperties.properties.provisioningState.enum;
        writeFileSync(join(stripped, file), JSON.stringify(doc));
      }
      const types = ['Microsoft.Kusto/clusters/databases'];
      const run = (outDir: string, operatorGoDir: string) =>
        importSchemas({ crdDir: real.path, schemasDir: stripped, outDir, types, operatorGoDir });
      const noGo = join(scratch, 'no-go-module');
      // The CRD's status has no enum lists: without the Go types the values are gone.
      run(join(scratch, 'kusto-without-go'), noGo);
      // With them, the import writes the values back (in place, as `npm run schemas:import` does)...
      run(stripped, goModule.path);
      // ...and a later import without them keeps what it wrote.
      run(join(scratch, 'kusto-kept'), noGo);
      for (const file of kusto) {
        const shipped = enumAt(schemasDir, file) as string[];
        expect(shipped.length, file).toBeGreaterThan(0);
        expect(enumAt(join(scratch, 'kusto-without-go'), file), file).toBeUndefined();
        // No schema to keep an order from: the Go `_Values` map's order, the shipped values.
        expect(enumAt(stripped, file), file).toEqual([...shipped].sort());
        expect(enumAt(join(scratch, 'kusto-kept'), file), file).toEqual([...shipped].sort());
      }
    },
  );

  it.runIf(real.present && goModule.present)(
    "makes a type's schemas for every version its CRD serves, and takes the operator's names from the CRD",
    () => {
      // No schema file for the vaults at all: the CRD's versions decide which are written.
      const bare = join(scratch, 'no-keyvault');
      cpSync(schemasDir, bare, { recursive: true });
      rmSync(join(bare, 'Microsoft.KeyVault'), { recursive: true, force: true });
      const out = join(scratch, 'keyvault');
      const result = importSchemas({
        crdDir: real.path,
        schemasDir: bare,
        outDir: out,
        types: ['Microsoft.KeyVault/vaults'],
        operatorGoDir: goModule.path,
      });
      expect(result.written.map((w) => `${w.file} ${w.version}`)).toEqual([
        'Microsoft.KeyVault/2021-04-01-preview/vaults.json v1api20210401preview',
        'Microsoft.KeyVault/2023-07-01/vaults.json v1api20230701',
      ]);
      const derived = parse(readFileSync(join(out, derivedConfigFile), 'utf8'));
      // Access policies take their IDs from config maps, network rules a reference: as the CRD has them,
      // on types named as the operator's Go types are (AccessPolicyEntry, not the property's AccessPolicy).
      expect(derived.transformations.fromConfig).toContainEqual({
        group: 'keyvault',
        type: 'AccessPolicyEntry',
        apiVersions: ['2021-04-01-preview', '2023-07-01'],
        properties: ['applicationId', 'objectId', 'tenantId'],
      });
      expect(derived.transformations.armReferences).toContainEqual({
        group: 'keyvault',
        type: 'VirtualNetworkRule',
        apiVersions: ['2021-04-01-preview', '2023-07-01'],
        properties: ['id'],
      });
    },
  );

  it.runIf(real.present)("finds a type's CRD by its ARM URI, whatever the operator named it", () => {
    const crds = new RealCrds(real.path);
    expect(crds.ofArmType('cache.azure.com', 'Microsoft.Cache/redis')).toMatchObject({
      file: 'cache.azure.com_redis.yaml',
      kind: 'Redis',
      plural: 'redis',
    });
    expect(crds.ofArmType('subscription.azure.com', 'Microsoft.Subscription/aliases')).toMatchObject({
      kind: 'Alias',
      plural: 'aliases',
    });
    // The URI's provider is written in lower case for Application Insights' pricing plans.
    expect(crds.ofArmType('insights.azure.com', 'Microsoft.Insights/components/pricingPlans')?.kind).toBe(
      'PricingPlan',
    );
    expect(crds.ofArmType('cache.azure.com', 'Microsoft.Cache/nothing')).toBeUndefined();
  });

  it.runIf(real.present)(
    "refuses, naming the folder, a schema it did not write before when the operator's Go types are missing",
    () => {
      // An ordinary kind and a oneOf one (Kusto's Database), whose leaves have status enums too.
      for (const schema of [
        'Microsoft.Storage/2023-01-01/storageAccounts.json',
        'Microsoft.Kusto/2024-04-13/clusters.databases.json',
      ]) {
        const copy = join(scratch, 'hand-written', schema);
        cpSync(schemasDir, copy, { recursive: true });
        const file = join(copy, schema);
        const doc = JSON.parse(readFileSync(file, 'utf8'));
        writeFileSync(file, JSON.stringify({ ...doc, description: 'written by hand' }));
        const missing = join(scratch, 'no-go-module');
        const run = () =>
          importSchemas({
            crdDir: real.path,
            schemasDir: copy,
            outDir: join(scratch, 'never'),
            operatorGoDir: missing,
          });
        expect(run).toThrow(OperatorGoSourceMissing);
        expect(run).toThrow(`${missing} (needed for the status enums of ${schema}`);
      }
    },
  );

  it.runIf(real.present)(
    "refuses a type no CRD of its group carries, naming it, instead of skipping it (Front Door's group is the operator's own)",
    () => {
      const copy = join(scratch, 'without-groups');
      cpSync(schemasDir, copy, { recursive: true });
      const configPath = join(copy, 'generator-config.yaml');
      const config = readFileSync(configPath, 'utf8');
      expect(config).toContain(
        '  Microsoft.Network/FrontDoorWebApplicationFirewallPolicies: network.frontdoor\n',
      );
      writeFileSync(
        configPath,
        config.replace(
          '  Microsoft.Network/FrontDoorWebApplicationFirewallPolicies: network.frontdoor\n',
          '',
        ),
      );
      const run = () =>
        importSchemas({
          crdDir: real.path,
          schemasDir: copy,
          outDir: join(scratch, 'never'),
          types: ['Microsoft.Network/FrontDoorWebApplicationFirewallPolicies'],
        });
      expect(run).toThrow(ImportedTypeWithoutCrd);
      expect(run).toThrow(
        'Microsoft.Network/FrontDoorWebApplicationFirewallPolicies: no CRD of network.azure.com carries its ARM URI',
      );
    },
  );

  it.runIf(real.present)(
    'imports a kind managed without ARM as its CRD has it, and refuses one that is an ARM resource or absent',
    () => {
      const out = join(scratch, 'without-arm');
      const written = importKubernetesKinds(real.path, out, ['sql.azure.com/User']);
      expect(written).toEqual([
        { file: 'kubernetes/sql.azure.com/users.json', crd: 'sql.azure.com_users.yaml', version: 'v1' },
      ]);
      const schema = JSON.parse(readFileSync(join(out, written[0]?.file ?? ''), 'utf8'));
      const crd = parse(readFileSync(join(real.path, 'sql.azure.com_users.yaml'), 'utf8'));
      expect(schema.versions[0].openAPIV3Schema).toEqual(crd.spec.versions[0].schema.openAPIV3Schema);
      expect(() => importKubernetesKinds(real.path, out, ['sql.azure.com/Server'])).toThrow(
        'sql.azure.com/Server: sql.azure.com_servers.yaml carries an ARM URI: import its ARM type instead',
      );
      expect(() => importKubernetesKinds(real.path, out, ['sql.azure.com/Nobody'])).toThrow(
        KubernetesKindNotFound,
      );
    },
  );

  it('names the folder when the real CRDs are missing', () => {
    const missing = join(scratch, 'no-such-crds');
    expect(() => importSchemas({ crdDir: missing, schemasDir, outDir: join(scratch, 'never') })).toThrow(
      RealCrdMissing,
    );
    expect(() => importSchemas({ crdDir: missing, schemasDir, outDir: join(scratch, 'never') })).toThrow(
      missing,
    );
  });
});
