import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalog } from '../../generated/catalog.ts';
import { liveChildrenFacts } from '../../src/codegen/import/live-children.ts';
import { generatedLayoutOf } from '../../src/lib/adoption/desired-body.ts';
import { operatorGoModule } from '../fixtures/operator-go-module.ts';

const neededBy = 'test/codegen/live-children.test.ts';
const module = operatorGoModule(neededBy);

/** A child collection as the operator's own extension code names it. */
interface OperatorCopy {
  readonly group: string;
  readonly kind: string;
  readonly path: readonly string[];
  readonly merge: 'replace' | 'byName';
}

/**
 * Every `ModifyARMResource` in the module's hand-written customizations that copies a child collection
 * from Azure (`getRawChildCollection`): the extension's kind, the collection's path (a name under
 * `properties`, or the path constant it spells out), and whether it merges (`merge...` by name) or replaces.
 */
function operatorCopies(moduleDir: string): OperatorCopy[] {
  const out: OperatorCopy[] = [];
  const api = join(moduleDir, 'api');
  for (const group of readdirSync(api).sort()) {
    let files: string[];
    try {
      files = readdirSync(join(api, group, 'customizations'));
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go')).sort()) {
      const text = readFileSync(join(api, group, 'customizations', file), 'utf8');
      const kind = /func \(\w+ \*(\w+)Extension\) ModifyARMResource\(/.exec(text)?.[1];
      const call = /getRawChildCollection\(raw, (?:"(\w+)"|(\w+)\.\.\.)\)/.exec(text);
      if (kind === undefined || !call) continue;
      const path = call[1]
        ? ['properties', call[1]]
        : [
            ...(new RegExp(`${call[2]}\\s*=\\s*\\[\\]string\\{([^}]*)\\}`).exec(text)?.[1] ?? '').matchAll(
              /"(\w+)"/g,
            ),
          ].map((m) => m[1] as string);
      out.push({
        group: `${group}.azure.com`,
        kind,
        path,
        merge: /\bmerge\w+\(/.test(text) ? 'byName' : 'replace',
      });
    }
  }
  return out;
}

describe("the operator's child collections", () => {
  it.skipIf(!module.present)(
    'are the ones its customizations copy from Azure, at the same paths, merged the same way',
    () => {
      const copies = operatorCopies(module.path);
      expect(copies.length).toBeGreaterThan(0);
      const ours = liveChildrenFacts.map((fact) => {
        const entry = catalog.find((e) => e.armType.toLowerCase() === fact.armType.toLowerCase());
        return { group: entry?.group, kind: entry?.kind, path: fact.path, merge: fact.merge };
      });
      const key = (c: { group?: string; kind?: string }) => `${c.group}/${c.kind}`;
      expect([...ours].sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
        [...copies].sort((a, b) => key(a).localeCompare(key(b))),
      );
    },
  );

  it('are in the generated layout of every version of those kinds, and of no other kind', async () => {
    const withChildren: string[] = [];
    for (const entry of catalog) {
      for (const { version } of entry.versions) {
        const layout = await generatedLayoutOf(entry.group, version, entry.kind);
        if (layout?.liveChildren) withChildren.push(`${entry.kind} ${version} ${layout.liveChildren.path}`);
      }
    }
    const expected = catalog.flatMap((entry) => {
      const fact = liveChildrenFacts.find((f) => f.armType.toLowerCase() === entry.armType.toLowerCase());
      return fact ? entry.versions.map((v) => `${entry.kind} ${v.version} ${fact.path.join('.')}`) : [];
    });
    expect(withChildren.sort()).toEqual(expected.sort());
    expect(withChildren.length).toBeGreaterThanOrEqual(liveChildrenFacts.length);
  });
});
