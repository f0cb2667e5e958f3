import { describe, expect, it } from 'vitest';
import { LineCounter, parseAllDocuments } from 'yaml';
import { manifestDocuments } from '../../../src/lib/manifests/documents.ts';

function documentsOf(text: string) {
  const lines = new LineCounter();
  const parsed = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  return manifestDocuments('m.yaml', Array.isArray(parsed) ? parsed : [], lines);
}

describe('manifestDocuments', () => {
  it('numbers the documents that hold something, passing over empty and comment-only ones', () => {
    const found = documentsOf('# only\n---\n---\nkind: A\nspec:\n  x: 1\n');
    expect(found.map((d) => [d.index, d.number, d.line])).toEqual([[1, 1, 4]]);
    expect(found[0]?.lineOf(['spec', 'x'])).toBe(6);
  });

  it('resolves an alias to an anchor before it in its document, and names one from another document', () => {
    expect(documentsOf('a: &x 1\nb: *x\n')[0]?.value).toEqual({ a: 1, b: 1 });
    expect(() => documentsOf('a: &x 1\n---\nb: 2\nc: *x\n')).toThrow(
      'm.yaml:4: document 2: alias *x has no anchor before it in this document',
    );
  });

  it('refuses an alias bomb and a document that is not an object, naming file, line and document', () => {
    let bomb = 'a: &a [1,1,1,1,1,1,1,1,1]\n';
    for (const [previous, name] of ['ab', 'bc', 'cd', 'de', 'ef']) {
      bomb += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
    }
    expect(() => documentsOf(`k: 1\n---\n${bomb}`)).toThrow(/^m\.yaml:3: document 2: too many aliases/);
    expect(() => documentsOf('k: 1\n---\n- a\n')).toThrow(
      'm.yaml:3: document 2 is not an object (it is a list)',
    );
    expect(() => documentsOf('hello\n')).toThrow('m.yaml:1: document 1 is not an object (it is a string)');
  });
});
