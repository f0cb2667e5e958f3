import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../../src/lib/errors.ts';
import { type CrdCheckpoint, checkpointMatches, emptyCounts } from '../../../src/lib/migrate/checkpoint.ts';
import { FileCheckpointStore } from '../../../src/lib/migrate/checkpoint-file.ts';

function checkpoint(crd: string, batches: number): CrdCheckpoint {
  return {
    format: 1,
    crd,
    target: 'v20250801storage',
    crdUid: 'uid-1',
    crdGeneration: 3,
    continueToken: 'token',
    lastKey: 'ns/a',
    batches,
    counts: emptyCounts(),
    inFlight: undefined,
    listed: false,
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

describe('the --state-file checkpoint store', () => {
  it('keeps one record per CRD, replaces it on save and removes it on clear, leaving no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-state-'));
    const path = join(dir, 'state.json');
    const store = new FileCheckpointStore(path);
    expect(await store.load('a.x.azure.com')).toBeUndefined();
    await store.save(checkpoint('a.x.azure.com', 1));
    await store.save(checkpoint('b.x.azure.com', 1));
    await store.save(checkpoint('a.x.azure.com', 2));
    expect((await new FileCheckpointStore(path).load('a.x.azure.com'))?.batches).toBe(2);
    await store.clear('a.x.azure.com');
    expect(await store.load('a.x.azure.com')).toBeUndefined();
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).crds)).toEqual(['b.x.azure.com']);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('refuses a file that is not a migration state, naming it, unless told to restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrate-state-'));
    const path = join(dir, 'state.json');
    writeFileSync(path, '{"something": "else"}');
    await expect(new FileCheckpointStore(path).load('a.x.azure.com')).rejects.toBeInstanceOf(InvalidInput);
    await expect(new FileCheckpointStore(path).load('a.x.azure.com')).rejects.toThrow(path);
    const restarted = new FileCheckpointStore(path, true);
    await restarted.save(checkpoint('a.x.azure.com', 1));
    expect((await new FileCheckpointStore(path).load('a.x.azure.com'))?.batches).toBe(1);
  });

  it('discards progress saved for another target or another generation of the CRD', () => {
    const saved = checkpoint('a.x.azure.com', 4);
    const same = { target: 'v20250801storage', crdUid: 'uid-1', crdGeneration: 3 };
    expect(checkpointMatches(saved, same)).toBe(true);
    expect(checkpointMatches(saved, { ...same, crdGeneration: 4 })).toBe(false);
    expect(checkpointMatches(saved, { ...same, crdUid: 'uid-2' })).toBe(false);
    expect(checkpointMatches(saved, { ...same, target: 'v1api20240801storage' })).toBe(false);
  });
});
