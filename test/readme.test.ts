import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exitCodeRows } from '../src/lib/exit-codes.ts';

describe('the README', () => {
  it('documents every exit code exactly as the table in src/lib/exit-codes.ts says', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const documented = [...readme.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((match) => [
      Number(match[1]),
      match[2]!.replaceAll('`', ''),
    ]);
    expect(documented).toEqual(exitCodeRows());
  });
});
