import { describe, expect, it } from 'vitest';
import { TypeBuilder } from '../../../src/codegen/model/type-builder.ts';
import { modelStages } from '../../../src/codegen/pipeline.ts';
import { runStages } from '../../../src/codegen/runner.ts';
import type { RawSchema } from '../../../src/codegen/stages/load-schemas.ts';
import { newState } from '../../../src/codegen/state.ts';
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
