import { describe, expect, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';

const entry = (group: string, kind: string) => {
  const found = catalog.find((e) => e.group === group && e.kind === kind);
  if (!found) throw new Error(`${group}/${kind} is not catalogued`);
  return found;
};

describe('the catalog’s write-only ARM paths (x-ms-mutability without read)', () => {
  it('names a write-only property of every list element where the ARM body has it', () => {
    expect(entry('insights.azure.com', 'ActionGroup').writeOnly.v1api20230101).toEqual([
      'properties.automationRunbookReceivers[*].serviceUri',
      'properties.webhookReceivers[*].serviceUri',
    ]);
  });

  it('places a nested property under its own `properties`, as the ARM payload sends it (x-arm-path)', () => {
    const paths = entry('network.azure.com', 'ApplicationGateway').writeOnly.v1api20220701 ?? [];
    expect(paths).toContain('properties.backendAddressPools[*].properties.backendAddresses');
    expect(paths).not.toContain('properties.backendAddressPools[*].backendAddresses');
  });

  it('has an entry for every version of every kind, sorted', () => {
    for (const e of catalog) {
      expect(Object.keys(e.writeOnly)).toEqual(e.versions.map((v) => v.version));
      for (const paths of Object.values(e.writeOnly)) expect([...paths].sort()).toEqual(paths);
    }
  });
});
