import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareAsoVersions, newestAsoVersion, parseAsoVersion } from '../../src/lib/aso-version-name.ts';
import { realCrdVersions } from '../fixtures/real-crd-versions.ts';
import { sharedData } from '../fixtures/shared-data.ts';

const real = sharedData('real-aso-crds', 'test/lib/aso-version-name.test.ts (real version names)');

/** The storage version ordering predicts: the newest API version's storage variant, else the version itself. */
function predictedStorage(names: readonly string[]): string | undefined {
  const newest = newestAsoVersion(names.filter((n) => !parseAsoVersion(n)?.storage));
  if (!newest) return undefined;
  return names.includes(`${newest.name}storage`) ? `${newest.name}storage` : newest.name;
}

const order = (a: string, b: string) => compareAsoVersions(parseAsoVersion(a)!, parseAsoVersion(b)!);

describe('ASO version names', () => {
  it('orders the plain v prefix above v1api at the same date, below it at an older date', () => {
    expect(order('v20250801', 'v1api20250801')).toBeGreaterThan(0);
    expect(order('v1api20250801', 'v20240801')).toBeGreaterThan(0);
    expect(order('v20250801storage', 'v1api20250801storage')).toBeGreaterThan(0);
    expect(order('v1api20230601preview', 'v20210601')).toBeLessThan(0);
    expect(order('v1beta20250101', 'v1api20200601')).toBeLessThan(0);
    expect(order('v1alpha1api20250101', 'v1beta20200601')).toBeLessThan(0);
    expect(newestAsoVersion(['v1api20250801', 'v20250801', 'v1api20240801', 'v1'])?.name).toBe('v20250801');
  });

  it('rejects names outside the operator pattern', () => {
    for (const name of [
      'v2api20250801',
      'v2025080',
      'V20250801',
      'v20250801beta',
      'v1api20250801storagepreview',
    ]) {
      expect(parseAsoVersion(name), name).toBeUndefined();
    }
    expect(parseAsoVersion('v20250801previewstorage')).toMatchObject({
      prefix: 'v',
      date: '20250801',
      preview: true,
      storage: true,
    });
  });

  for (const release of ['v2.20.0', 'v2.18.0']) {
    it.runIf(real.present)(`parses every version name of the real ${release} CRDs`, () => {
      const names = realCrdVersions(join(real.path, release)).flatMap((c) => c.names);
      expect(names.filter((n) => !parseAsoVersion(n))).toEqual([]);
      // The real data's README counts 406 dated plain-prefix versions in v2.20.0 (the undated `v1` apart).
      if (release === 'v2.20.0')
        expect(names.filter((n) => parseAsoVersion(n)?.prefix === 'v' && n.length > 3).length).toBe(406);
    });

    it.runIf(real.present)(
      `picks the storage version of each real ${release} CRD as the operator does`,
      () => {
        const crds = realCrdVersions(join(real.path, release));
        expect(crds.length).toBeGreaterThan(250);
        const wrong = crds
          .filter((c) => predictedStorage(c.names) !== c.storage)
          .map((c) => `${c.file}: predicted ${predictedStorage(c.names)}, operator stores ${c.storage}`);
        expect(wrong).toEqual([]);
        // The CRDs that exercise the plain prefix beside v1api at one date are among them.
        const both = crds.filter((c) =>
          c.names.some((n) => n.startsWith('v1api') && c.names.includes(`v${n.slice(5)}`)),
        );
        expect(both.length).toBeGreaterThan(10);
      },
    );
  }
});
