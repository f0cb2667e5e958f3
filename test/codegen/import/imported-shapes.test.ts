import { describe, expect, it } from 'vitest';
import { StorageAccountsBlobService_armLayout } from '../../../generated/storage/v20250601/arm.ts';
import { TypeBuilder } from '../../../src/codegen/model/type-builder.ts';
import { modelStages } from '../../../src/codegen/pipeline.ts';
import { runStages } from '../../../src/codegen/runner.ts';
import type { RawSchema } from '../../../src/codegen/stages/load-schemas.ts';
import { newState } from '../../../src/codegen/state.ts';
import { armBody, defaultAzureName } from '../../../src/lib/conversion/arm.ts';
import { repoRoot } from '../support.ts';

describe('what the generator makes of the shapes the import writes', () => {
  it("keeps an unflattened `properties` on a ResourceGroup's status, as the operator has it, and off its spec", () => {
    const state = newState(repoRoot);
    runStages(modelStages, state, () => {});
    const pkg = state.packages.find((p) => p.group === 'resources' && p.version === 'v1api20200601');
    const spec = pkg?.types.get('ResourceGroup_Spec');
    const status = pkg?.types.get('ResourceGroup_STATUS');
    if (spec?.kind !== 'object' || status?.kind !== 'object') throw new Error('no ResourceGroup types');
    expect(spec.properties.map((p) => p.name)).not.toContain('properties');
    expect(spec.properties.map((p) => p.name)).not.toContain('provisioningState');
    const properties = status.properties.find((p) => p.name === 'properties');
    expect(properties?.type).toEqual({ kind: 'object', name: 'ResourceGroupProperties_STATUS' });
    expect(properties?.arm).toBe('root');
    const inner = pkg?.types.get('ResourceGroupProperties_STATUS');
    expect(inner?.kind === 'object' && inner.properties.map((p) => p.name)).toEqual(['provisioningState']);
    expect(status.properties.map((p) => p.name)).not.toContain('provisioningState');
  });

  it("gives a blob service no azureName and ARM bodies its fixed name `default`, as the schema's name enum says", () => {
    const state = newState(repoRoot);
    runStages(modelStages, state, () => {});
    const pkg = state.packages.find((p) => p.group === 'storage' && p.version === 'v20250601');
    const blob = pkg?.resources.find((r) => r.kind === 'StorageAccountsBlobService');
    expect(blob?.fixedName).toBe('default');
    const spec = pkg?.types.get('StorageAccountsBlobService_Spec');
    if (spec?.kind !== 'object') throw new Error('no StorageAccountsBlobService_Spec');
    expect(spec.properties.map((p) => p.name)).not.toContain('azureName');
    // Resources whose name is free keep azureName.
    const account = pkg?.types.get('StorageAccount_Spec');
    expect(account?.kind === 'object' && account.properties.map((p) => p.name)).toContain('azureName');
    const layout = StorageAccountsBlobService_armLayout;
    const body = armBody({ metadata: { name: 'blobs' }, spec: { owner: { name: 'acct' } } }, layout);
    expect(body.name).toBe('default');
    const stored = defaultAzureName({ metadata: { name: 'blobs' }, spec: {} }, layout);
    expect(stored.spec).toEqual({});
  });

  it('leaves a property ARM never returns (x-ms-mutability without read) off the status only', () => {
    const schema: RawSchema = {
      file: 'memory.json',
      provider: 'Microsoft.Example',
      typePath: 'things',
      apiVersion: '2024-01-01',
      resource: {},
      definitions: {},
    };
    const def = {
      type: 'object',
      properties: {
        kept: { type: 'string' },
        written: { type: 'string', 'x-ms-mutability': ['create', 'update'] },
      },
    };
    const names = (side: 'spec' | 'status') =>
      new TypeBuilder().properties(schema, def, 'Thing', side).map((p) => p.name);
    expect(names('spec')).toEqual(['kept', 'written']);
    expect(names('status')).toEqual(['kept']);
  });
});
