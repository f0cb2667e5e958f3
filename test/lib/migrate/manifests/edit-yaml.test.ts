import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ManifestError } from '../../../../src/lib/manifests/errors.ts';
import { rewriteYaml, unchanged } from '../../../../src/lib/migrate/manifests/edit-yaml.ts';

const text = `# leading comment
apiVersion: example.azure.com/v1beta20210601 # inline
kind: Thing
metadata:
  name: one
  labels: {app: shop, tier: "db"}
spec:
  # about the zone
  zoneId: /zones/a # keep me
  sizes:
  - 1
  - 2
  note: 'single quoted'
---
apiVersion: v1
kind: ConfigMap
data:
    untouched:   "spacing kept"
`;

/** The first document of {@link text}, as the edits see it. */
interface Thing {
  apiVersion: string;
  spec: Record<string, unknown> & { zoneId?: string; sizes: number[]; note?: string };
}

/** Applies `edit` to a copy of the first document's value and writes the file back. */
async function rewrite(source: string, edit: (value: Thing) => void): Promise<string> {
  const rewritten = await rewriteYaml('things.yaml', source, ({ document, index }) => {
    if (index !== 0) return unchanged;
    const value = document.toJS() as Thing;
    edit(value);
    return value;
  });
  expect(rewritten.pieces.map((piece) => piece.after).join('')).toBe(rewritten.text);
  expect(rewritten.pieces.map((piece) => piece.before).join('')).toBe(source);
  return rewritten.text;
}

describe('editing YAML documents in place', () => {
  it('gives back the text byte for byte when nothing changes', async () => {
    expect((await rewriteYaml('things.yaml', text, () => unchanged)).text).toBe(text);
  });

  it('changes a scalar inside the text, keeping quoting, comments and the other documents', async () => {
    const out = await rewrite(text, (value) => {
      value.apiVersion = 'example.azure.com/v1api20210601';
      value.spec.note = 'still single';
    });
    expect(out).toBe(
      text
        .replace('v1beta20210601 # inline', 'v1api20210601 # inline')
        .replace("'single quoted'", "'still single'"),
    );
  });

  it('renames a key where it stands, keeping its comments', async () => {
    const out = await rewrite(text, (value) => {
      value.spec = { zoneResourceId: value.spec.zoneId, sizes: value.spec.sizes, note: value.spec.note };
    });
    expect(out).toBe(text.replace('  zoneId: /zones/a # keep me', '  zoneResourceId: /zones/a # keep me'));
  });

  it('removes a key with its own line only', async () => {
    const out = await rewrite(text, (value) => {
      delete value.spec.note;
    });
    expect(out).toBe(text.replace("  note: 'single quoted'\n", ''));
  });

  it('renders a document whose shape grows from its tree, keeping comments, styles and the file habits', async () => {
    const out = await rewrite(text, (value) => {
      value.spec.sizes.push(3);
      value.spec.added = { by: 'conversion' };
    });
    expect(parse(out.split('---\n')[0] as string)).toMatchObject({
      spec: { sizes: [1, 2, 3], added: { by: 'conversion' } },
    });
    expect(out.match(/# leading comment/g)).toHaveLength(1);
    for (const kept of [
      '# inline',
      '# about the zone',
      '# keep me',
      'labels: {app: shop, tier: "db"}',
      "note: 'single quoted'",
      '  sizes:\n  - 1\n',
    ]) {
      expect(out).toContain(kept);
    }
    expect(
      out.endsWith('---\napiVersion: v1\nkind: ConfigMap\ndata:\n    untouched:   "spacing kept"\n'),
    ).toBe(true);
  });

  it('names the file and line of malformed YAML', async () => {
    const bad = () => rewriteYaml('bad.yaml', 'a: 1\nb: [1, 2\nc: 3\n', () => unchanged);
    await expect(bad()).rejects.toThrow(ManifestError);
    await expect(bad()).rejects.toThrow(/^bad\.yaml:\d+: malformed YAML/);
  });
});
