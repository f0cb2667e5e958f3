import { describe, expect, it } from 'vitest';
import { releaseCatalog } from '../../../generated/releases.ts';
import type { InstalledCrd } from '../../../src/lib/upgrade/installed-operator.ts';
import type { ReleaseCatalog } from '../../../src/lib/upgrade/release-types.ts';
import { storageMoveFindings, storedVersionCleanup } from '../../../src/lib/upgrade/storage-moves.ts';
import { storedVersionFix } from '../../../src/lib/upgrade/stored-version-findings.ts';

/**
 * Three releases: the first hop moves Widget's storage from v1 to v2 (v1 still served) and Gadget's from
 * v1 to v2 too; the second hop removes v1 of both. Only the middle release's operator cleans stored versions.
 */
const catalog: ReleaseCatalog = {
  releases: ['v2.1.0', 'v2.2.0', 'v2.3.0'],
  operators: {
    'v2.1.0': { cleansStoredVersions: false },
    'v2.2.0': { cleansStoredVersions: true },
    'v2.3.0': { cleansStoredVersions: false },
  },
  kinds: {},
  hops: [
    {
      from: 'v2.1.0',
      to: 'v2.2.0',
      addedKinds: [],
      removedKinds: [],
      kinds: {
        'things.azure.com/Widget': { storage: { from: 'v1storage', to: 'v2storage' } },
        'things.azure.com/Gadget': {
          storage: { from: 'v1storage', to: 'v2storage' },
          removedVersions: ['v0', 'v0storage'],
        },
      },
    },
    {
      from: 'v2.2.0',
      to: 'v2.3.0',
      addedKinds: [],
      removedKinds: [],
      kinds: {
        'things.azure.com/Widget': {
          removedVersions: ['v1', 'v1storage'],
          storage: { from: 'v2storage', to: 'v3storage' },
        },
      },
    },
  ],
};
const [first, second] = catalog.hops as [ReleaseCatalog['hops'][0], ReleaseCatalog['hops'][0]];
const widget: InstalledCrd = {
  name: 'widgets.things.azure.com',
  kind: 'things.azure.com/Widget',
  storage: 'v1storage',
  storedVersions: ['v1storage'],
};

describe('who clears a stored version a storage move leaves behind', () => {
  it('is the operator when its release cleans and it manages its CRDs, conditionally when that is unknown', () => {
    const auto = storedVersionCleanup(catalog, first, widget.name, 'v1storage', 'v2storage', 'auto');
    expect(auto.by).toBe('operator');
    expect(auto.how).toBe(
      'ASO v2.2.0 drops v1storage from storedVersions by itself once it has reconciled every object, which stores it at v2storage: nothing to run',
    );
    const unknown = storedVersionCleanup(catalog, first, widget.name, 'v1storage', 'v2storage', undefined);
    expect(unknown.by).toBe('operator');
    expect(unknown.how).toContain('by itself if it manages its CRDs (--crd-management auto)');
  });

  it('is the printed migrate command, after the hop, when the operator does not manage CRDs or its release does not clean', () => {
    expect(storedVersionCleanup(catalog, first, widget.name, 'v1storage', 'v2storage', 'none')).toEqual({
      by: 'migrate',
      how: 'ASO v2.2.0 cleans storedVersions only with --crd-management auto (here none): after upgrading to v2.2.0, kubectl aso migrate --to v2 --kind widgets.things.azure.com',
    });
    expect(storedVersionCleanup(catalog, second, widget.name, 'v2storage', 'v3storage', 'auto')).toEqual({
      by: 'migrate',
      how: 'ASO v2.3.0 leaves v2storage in storedVersions: after upgrading to v2.3.0, kubectl aso migrate --to v3 --kind widgets.things.azure.com',
    });
  });

  it('lists each installed CRD per hop that moves its storage, and not a kind the cluster lacks', () => {
    const findings = storageMoveFindings(catalog, [widget], catalog.hops, 'auto');
    expect(findings.map((f) => [f.hop, f.crd, f.from, f.to, f.by])).toEqual([
      ['v2.1.0 -> v2.2.0', 'widgets.things.azure.com', 'v1storage', 'v2storage', 'operator'],
      ['v2.2.0 -> v2.3.0', 'widgets.things.azure.com', 'v2storage', 'v3storage', 'migrate'],
    ]);
  });

  it('leaves out a move whose old version the same hop removes: that one blocks instead', () => {
    const removing: ReleaseCatalog = {
      ...catalog,
      hops: [
        {
          ...first,
          kinds: {
            'things.azure.com/Widget': {
              storage: { from: 'v1storage', to: 'v2storage' },
              removedVersions: ['v1', 'v1storage'],
            },
          },
        },
      ],
    };
    expect(storageMoveFindings(removing, [widget], removing.hops, 'auto')).toEqual([]);
  });
});

describe('the fix for a stored version a hop removes', () => {
  it('is migrate to the storage version while the hop keeps it', () => {
    const stored = { ...widget, storage: 'v2storage', storedVersions: ['v1storage', 'v2storage'] };
    expect(storedVersionFix(catalog, catalog.hops, second, stored, 'auto')).toBe(
      'kubectl aso migrate --to v2 --kind widgets.things.azure.com',
    );
  });

  it('is the earlier hop that moves the storage away when the hop removes the storage version itself', () => {
    expect(storedVersionFix(catalog, catalog.hops, second, widget, 'auto')).toBe(
      'v2.3.0 removes the storage version v1storage: upgrade to v2.2.0 first, which moves it to v2storage; ' +
        'ASO v2.2.0 drops v1storage from storedVersions by itself once it has reconciled every object, ' +
        'which stores it at v2storage: nothing to run; then go on',
    );
    expect(storedVersionFix(catalog, [second], second, widget, 'auto')).toBe(
      'v2.3.0 removes the storage version v1storage itself: upgrade first to a release that moves the storage version',
    );
  });

  it("names the real v2.13.0 -> v2.18.0 hop's removal of Fleet's storage version as one no migration fixes", () => {
    const hops = releaseCatalog.hops.filter((hop) => hop.from === 'v2.13.0');
    const fleet: InstalledCrd = {
      name: 'fleets.containerservice.azure.com',
      kind: 'containerservice.azure.com/Fleet',
      storage: releaseCatalog.kinds['v2.13.0']?.['containerservice.azure.com/Fleet']?.storage ?? '',
      storedVersions: ['v1api20230315previewstorage'],
    };
    expect(fleet.storage).toBe('v1api20230315previewstorage');
    expect(storedVersionFix(releaseCatalog, hops, hops[0] as (typeof hops)[0], fleet, 'auto')).toContain(
      'v2.18.0 removes the storage version v1api20230315previewstorage itself',
    );
  });
});
