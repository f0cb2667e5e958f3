import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bagKey } from '../../../src/lib/conversion/property-bag.ts';
import { operatorGoModule } from '../../fixtures/operator-go-module.ts';

describe('bagKey: the Go field name the operator keys a bag entry by', () => {
  it('capitalises a camel-case JSON name', () => {
    expect(bagKey('allowedCopyScope')).toBe('AllowedCopyScope');
    expect(bagKey('IgnoreHttpsStatusCode')).toBe('IgnoreHttpsStatusCode');
  });

  it('drops dashes and dots and capitalises the letter after them (Redis configuration settings)', () => {
    expect(bagKey('storage-subscription-id')).toBe('StorageSubscriptionId');
    expect(bagKey('aof-storage-connection-string-0')).toBe('AofStorageConnectionString0');
    expect(bagKey('odata.type')).toBe('OdataType');
  });

  it('drops an underscore only before a lower-case letter', () => {
    expect(bagKey('properties_type')).toBe('PropertiesType');
    expect(bagKey('Application_Type')).toBe('Application_Type');
  });
});

/** Storage types' fields with a JSON name holding `-`, `.` or `_`, as `[Go field, JSON name]`. */
function separatedFields(moduleDir: string): [string, string][] {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (dir.endsWith('/storage') && entry.name.endsWith('_types_gen.go'))
        for (const m of readFileSync(path, 'utf8').matchAll(
          /^\s+([A-Za-z0-9_]+)\s+\S+\s+`json:"([^",]*[-._][^",]*)[",]/gm,
        ))
          if (m[2] !== '$propertyBag') out.set(`${m[1]}\u0000${m[2]}`, '');
    }
  };
  walk(join(moduleDir, 'api'));
  return [...out.keys()].map((k) => k.split('\u0000') as [string, string]).sort();
}

describe("bagKey against the operator's own Go types (v2.20.0)", () => {
  const module = operatorGoModule('the bag-key check');
  it.runIf(module.present)('names every field whose JSON name has a separator as the operator does', () => {
    const fields = separatedFields(module.path);
    expect(fields.length).toBeGreaterThan(40);
    expect(fields.filter(([field, json]) => bagKey(json) !== field)).toEqual([]);
  });
});
