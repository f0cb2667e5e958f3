import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [path.join(dir, e.name)]
        : [],
  );
}

describe('Azure libraries stay off every path but adopt-check', () => {
  it('imports @azure/* only in src/lib/azure, only lazily (or type-only), and arm-reader only lazily', () => {
    for (const file of sources(src)) {
      const text = readFileSync(file, 'utf8');
      const staticAzure = text.match(/^import (?!type )[^;]*from '@azure\/[^']+'/m);
      expect(staticAzure, file).toBeNull();
      if (/import\(['"]@azure\//.test(text)) expect(path.relative(src, file), file).toMatch(/^lib\/azure\//);
      expect(text.match(/^import (?!type )[^;]*from '[^']*azure\/arm-reader\.ts'/m), file).toBeNull();
    }
  });
});
