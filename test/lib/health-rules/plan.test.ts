import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/lib/errors.ts';
import { healthRulesPlanOf } from '../../../src/lib/health-rules/plan.ts';
import type { KubeClient } from '../../../src/lib/kube/client.ts';

const noCluster = (): Promise<KubeClient> => Promise.reject(new Error('not connected in this test'));

describe('what health-rules generates, from its flags', () => {
  it('refuses --argocd with --flux, and neither, as usage errors', () => {
    expect(() => healthRulesPlanOf({ argocd: true, flux: true }, noCluster)).toThrow(/exclusive/);
    expect(() => healthRulesPlanOf({}, noCluster)).toThrow(UsageError);
    expect(() => healthRulesPlanOf({ argocd: false, flux: false }, noCluster)).toThrow(/--argocd or --flux/);
  });

  it('refuses --helm-values without --argocd, and --all or --crds alone', () => {
    expect(() => healthRulesPlanOf({ flux: true, 'helm-values': true }, noCluster)).toThrow(/--helm-values/);
    expect(() => healthRulesPlanOf({ flux: true, all: true }, noCluster)).toThrow(/--all needs --crds/);
    expect(() => healthRulesPlanOf({ flux: true, crds: 'dir' }, noCluster)).toThrow(/goes with --all/);
  });

  it('reads the cluster by default and the CRD files with --all --crds', () => {
    expect(healthRulesPlanOf({ argocd: true }, noCluster)).toMatchObject({
      target: { tool: 'argocd', layout: 'configmap' },
      source: { from: 'cluster' },
    });
    expect(
      healthRulesPlanOf({ argocd: true, 'helm-values': true, all: true, crds: 'd', kind: ['rg'] }, noCluster),
    ).toEqual({
      target: { tool: 'argocd', layout: 'helm-values' },
      source: { from: 'crds', dir: 'd', kinds: ['rg'] },
    });
    expect(healthRulesPlanOf({ flux: true }, noCluster).source).toMatchObject({ from: 'cluster', kinds: [] });
    expect(healthRulesPlanOf({ flux: true }, noCluster).target).toEqual({ tool: 'flux' });
  });
});
