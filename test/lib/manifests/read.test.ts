import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../../src/lib/manifests/errors.ts';
import { readManifests } from '../../../src/lib/manifests/read.ts';

const rg =
  'apiVersion: resources.azure.com/v1api20200601\nkind: ResourceGroup\nmetadata:\n  name: rg\nspec:\n  location: westus\n';

describe('readManifests', () => {
  it('reads multi-document YAML, JSON and kind: List, passing over non-ASO objects', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'adopt-'));
    writeFileSync(
      path.join(dir, 'a.yaml'),
      `${rg}---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n---\n`,
    );
    writeFileSync(
      path.join(dir, 'b.json'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [{ apiVersion: 'x.azure.com/v1', kind: 'K', metadata: { name: 'k' } }],
      }),
    );
    mkdirSync(path.join(dir, 'sub'));
    writeFileSync(path.join(dir, 'sub', 'c.yaml'), rg.replace('name: rg', 'name: rg2'));
    const flat = readManifests({ files: [dir], recursive: false });
    expect(flat.objects.map((o) => o.metadata.name)).toEqual(['rg', 'k']);
    expect(flat.passedOver).toHaveLength(1);
    const deep = readManifests({ files: [dir], recursive: true });
    expect(deep.objects.map((o) => o.metadata.name)).toEqual(['rg', 'k', 'rg2']);
  });

  it('reads stdin for -', () => {
    const set = readManifests({ files: ['-'], recursive: false, readStdin: () => rg });
    expect(set.objects[0]?.source).toBe('<stdin>#1');
  });

  it('names file and line of malformed YAML', () => {
    const bad = () =>
      readManifests({ files: ['-'], recursive: false, readStdin: () => `${rg}---\nkind: [\n  x: :\n` });
    expect(bad).toThrow(ManifestError);
    expect(bad).toThrow(/<stdin>:\d+: malformed YAML/);
  });

  it('names an object without apiVersion or kind', () => {
    const bad = () =>
      readManifests({ files: ['-'], recursive: false, readStdin: () => 'kind: X\nmetadata:\n  name: foo\n' });
    expect(bad).toThrow(/object foo has no apiVersion/);
  });

  it('names a missing file', () => {
    expect(() => readManifests({ files: ['/nonexistent/x.yaml'], recursive: false })).toThrow(ManifestError);
  });
});
