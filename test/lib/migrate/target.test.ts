import { describe, expect, it } from 'vitest';
import { compareAsoVersions, newestAsoVersion, parseAsoVersion } from '../../../src/lib/aso-version-name.ts';
import { UsageError } from '../../../src/lib/errors.ts';
import { parseTarget, resolveTarget } from '../../../src/lib/migrate/target.ts';

/** FlexibleServer's versions in ASO v2.20.0, plus the alpha and beta ones of its earliest releases. */
const flexibleServer = [
  'v1alpha1api20210601',
  'v1alpha1api20210601storage',
  'v1beta20210601',
  'v1beta20210601storage',
  'v1api20210601',
  'v1api20210601storage',
  'v1api20220120preview',
  'v1api20220120previewstorage',
  'v1api20221201',
  'v1api20221201storage',
  'v1api20230601preview',
  'v1api20230601previewstorage',
  'v1api20240801',
  'v1api20240801storage',
  'v20250801',
  'v20250801storage',
];

describe('ASO version names', () => {
  it('takes apart every prefix, with dates, preview and storage', () => {
    expect(parseAsoVersion('v1alpha1api20210601storage')).toMatchObject({
      prefix: 'v1alpha1api',
      date: '20210601',
      preview: false,
      storage: true,
    });
    expect(parseAsoVersion('v1beta20201201')).toMatchObject({ prefix: 'v1beta', storage: false });
    expect(parseAsoVersion('v1api20230202previewstorage')).toMatchObject({
      prefix: 'v1api',
      preview: true,
      storage: true,
    });
    expect(parseAsoVersion('v20250801')).toMatchObject({ prefix: 'v', date: '20250801' });
    expect(parseAsoVersion('v1')).toMatchObject({ prefix: 'v', date: '1' });
    expect(parseAsoVersion('v1beta1')).toMatchObject({ prefix: 'v1beta', date: '1' });
    expect(parseAsoVersion('v2alpha')).toBeUndefined();
    expect(parseAsoVersion('apps/v1')).toBeUndefined();
  });

  it('orders as the operator does: preview oldest, then alpha, beta, then date, then plain v over v1api', () => {
    const order = (a: string, b: string) =>
      compareAsoVersions(parseAsoVersion(a) as never, parseAsoVersion(b) as never);
    expect(order('v1api20240801preview', 'v1alpha1api20180101')).toBeLessThan(0);
    expect(order('v1alpha1api20230101', 'v1beta20200101')).toBeLessThan(0);
    expect(order('v1beta20230101', 'v1api20200101')).toBeLessThan(0);
    expect(order('v1api20230601', 'v1api20210601')).toBeGreaterThan(0);
    expect(order('v20230601', 'v1api20230601')).toBeGreaterThan(0);
    expect(order('v1api20230601', 'v20210601')).toBeGreaterThan(0);
    expect(newestAsoVersion(flexibleServer)?.name).toBe('v20250801storage');
  });
});

describe('--to', () => {
  it('parses latest, a prefix or a version name, and refuses anything else', () => {
    expect(parseTarget('latest')).toEqual({ kind: 'latest' });
    expect(parseTarget('v1api')).toEqual({ kind: 'prefix', prefix: 'v1api' });
    expect(parseTarget('v')).toEqual({ kind: 'prefix', prefix: 'v' });
    expect(parseTarget('v1beta20210601')).toEqual({ kind: 'exact', version: 'v1beta20210601' });
    expect(() => parseTarget('v1api-2021')).toThrow(UsageError);
    expect(() => parseTarget('beta')).toThrow(/not latest, a prefix/);
  });

  it('resolves to the newest storage variant under a prefix', () => {
    expect(resolveTarget(parseTarget('v1api'), flexibleServer)).toEqual({ version: 'v1api20240801storage' });
    expect(resolveTarget(parseTarget('v1beta'), flexibleServer)).toEqual({
      version: 'v1beta20210601storage',
    });
    expect(resolveTarget(parseTarget('v'), flexibleServer)).toEqual({ version: 'v20250801storage' });
    expect(resolveTarget(parseTarget('latest'), flexibleServer)).toEqual({ version: 'v20250801storage' });
  });

  it('takes an API version name for its storage variant, and an exact storage name as it is', () => {
    expect(resolveTarget(parseTarget('v1api20210601'), flexibleServer)).toEqual({
      version: 'v1api20210601storage',
    });
    expect(resolveTarget(parseTarget('v1api20221201storage'), flexibleServer)).toEqual({
      version: 'v1api20221201storage',
    });
    expect(resolveTarget(parseTarget('v1'), ['v1', 'v1beta1'])).toEqual({ version: 'v1' });
  });

  it('says why a CRD has no version for the target', () => {
    expect(resolveTarget(parseTarget('v1api20990101'), flexibleServer)).toEqual({
      version: undefined,
      reason: 'the CRD has no version v1api20990101',
    });
    expect(resolveTarget(parseTarget('v1alpha1api'), ['v1api20220401', 'v1api20220401storage'])).toEqual({
      version: undefined,
      reason: 'the CRD has no version with the prefix v1alpha1api',
    });
  });
});
