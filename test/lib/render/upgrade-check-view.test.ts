import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { upgradeCheckMarkdown, upgradeCheckView } from '../../../src/lib/render/upgrade-check-view.ts';
import type { UpgradeCheckReport } from '../../../src/lib/upgrade/check.ts';

const context = { palette: new Chalk({ level: 0 }), width: 400, wide: false };

/** A cluster report with two storage moves: one the operator clears itself, one left to the user. */
const report: UpgradeCheckReport = {
  from: 'v2.18.0',
  to: 'v2.20.0',
  hops: [
    {
      from: 'v2.18.0',
      to: 'v2.20.0',
      spans: ['v2.19'],
      addedKinds: 19,
      removedVersions: {},
      storageMoves: 68,
      operatorCleansStoredVersions: true,
      propertyChanges: 3,
    },
  ],
  cluster: {
    installed: { release: 'v2.18.0', releaseFrom: 'crd-labels', crds: 2 },
    storedVersions: [],
    appliedVersions: [],
    storageMoves: [
      {
        hop: 'v2.18.0 -> v2.20.0',
        crd: 'widgets.things.azure.com',
        kind: 'things.azure.com/Widget',
        from: 'v1storage',
        to: 'v2storage',
        by: 'operator',
        how: 'the operator drops v1storage',
      },
      {
        hop: 'v2.18.0 -> v2.20.0',
        crd: 'gadgets.things.azure.com',
        kind: 'things.azure.com/Gadget',
        from: 'v1storage',
        to: 'v2storage',
        by: 'migrate',
        how: 'after upgrading to v2.20.0, kubectl aso migrate --to v2 --kind gadgets.things.azure.com',
      },
    ],
  },
  blocking: 0,
  warnings: 0,
};

describe('the upgrade report, on storage moves', () => {
  it('says per hop whether the operator clears moved-away stored versions itself', () => {
    const text = upgradeCheckView(report, context);
    expect(text).toContain(
      '19 kinds are new; ASO v2.20.0 clears moved-away stored versions itself (with --crd-management auto)',
    );
    const leaving = upgradeCheckView(
      { ...report, hops: report.hops.map((hop) => ({ ...hop, operatorCleansStoredVersions: false })) },
      context,
    );
    expect(leaving).toContain('ASO v2.20.0 leaves moved-away stored versions for you to clear');
  });

  it('counts both and lists only what the user must run; -o wide lists the operator rows too', () => {
    const text = upgradeCheckView(report, context);
    expect(text).toContain(
      'CRDs whose storage version a hop moves: 2; the operator clears the old stored version of 1 itself, 1 need kubectl aso migrate after their hop (listed below)',
    );
    expect(text).toContain('gadgets.things.azure.com');
    expect(text).not.toContain('widgets.things.azure.com');
    const wide = upgradeCheckView(report, { ...context, wide: true });
    expect(wide).toContain('widgets.things.azure.com');
    expect(wide).toMatch(/gadgets\.things\.azure\.com +v1storage -> v2storage +you +after upgrading/);
  });

  it('puts the moves the user must run in the Markdown table, not the operator ones', () => {
    const markdown = upgradeCheckMarkdown(report);
    expect(markdown).toContain(
      '| v2.18.0 -> v2.20.0 | gadgets.things.azure.com | v1storage -> v2storage | after upgrading to v2.20.0, kubectl aso migrate --to v2 --kind gadgets.things.azure.com |',
    );
    expect(markdown).not.toContain('widgets.things.azure.com');
  });
});
