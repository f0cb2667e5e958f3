import { UsageError } from '../errors.ts';
import type { KubeClient } from '../kube/client.ts';
import type { HealthRulesTarget, KindSource } from './run.ts';

/** The flags of `health-rules` that decide what is generated, as parsed. */
export interface HealthRulesFlags {
  argocd?: boolean | undefined;
  flux?: boolean | undefined;
  'helm-values'?: boolean | undefined;
  all?: boolean | undefined;
  crds?: string | undefined;
  kind?: string[] | undefined;
}

/** What one run generates, for which tool, from which kinds. */
export interface HealthRulesPlan {
  target: HealthRulesTarget;
  source: KindSource;
}

/**
 * The plan the flags ask for, or a usage error for a combination that says nothing clear: the rules are
 * for one tool at a time (their formats differ), `--helm-values` is Argo CD's, and `--all` (every kind of a
 * release) needs the release's CRDs in `--crds`.
 */
export function healthRulesPlanOf(
  flags: HealthRulesFlags,
  connect: () => Promise<KubeClient>,
): HealthRulesPlan {
  // oclif leaves a boolean flag that was not given undefined.
  const argocd = flags.argocd === true;
  const all = flags.all === true;
  if (argocd === (flags.flux === true)) {
    throw new UsageError(
      argocd ? '--argocd and --flux are exclusive: ask for one tool at a time' : 'give --argocd or --flux',
    );
  }
  if (flags['helm-values'] === true && !argocd) throw new UsageError('--helm-values is for --argocd');
  if (all !== (flags.crds !== undefined)) {
    throw new UsageError(
      all
        ? "--all needs --crds DIR: the release's CRD files (e.g. the operator release's CRD manifest)"
        : '--crds DIR goes with --all (every kind of the release); without them the cluster is read',
    );
  }
  if (flags.crds === '') throw new UsageError('--crds needs a folder or file');
  return {
    target: argocd
      ? { tool: 'argocd', layout: flags['helm-values'] === true ? 'helm-values' : 'configmap' }
      : { tool: 'flux' },
    source:
      flags.crds !== undefined
        ? { from: 'crds', dir: flags.crds, kinds: flags.kind ?? [] }
        : { from: 'cluster', connect, kinds: flags.kind ?? [] },
  };
}
