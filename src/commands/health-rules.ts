import { Flags } from '@oclif/core';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { healthRulesPlanOf } from '../lib/health-rules/plan.ts';
import { healthRulesFormats, renderHealthRules } from '../lib/health-rules/render.ts';
import { healthRules } from '../lib/health-rules/run.ts';
import { connect } from '../lib/kube/connect.ts';

export default class HealthRules extends AsoCommand {
  static override summary = 'Argo CD or Flux health rules that read ASO resources as `status` does';
  static override description =
    'One rule per ASO kind installed in the cluster (or, with --all --crds DIR, per kind of a release): Error is Degraded/failed at once; Ready at the current generation is Healthy/current; Progressing, Warning (the operator retries), Deleting, no condition yet and a stale condition are Progressing/inProgress; Ready with reconcile-policy skip is Suspended in Argo CD.';
  static override examples = [
    '<%= config.bin %> health-rules --argocd > argocd-cm-patch.yaml',
    '<%= config.bin %> health-rules --argocd --helm-values > values-aso-health.yaml',
    '<%= config.bin %> health-rules --flux --kind ResourceGroup --kind flexibleservers.dbforpostgresql.azure.com',
    '<%= config.bin %> health-rules --flux -o json',
    '<%= config.bin %> health-rules --flux --all --crds ./aso-crds/',
  ];
  static override flags = {
    ...kubeFlags,
    argocd: Flags.boolean({
      description: 'Lua health checks for argocd-cm (resource.customizations.health.*)',
    }),
    flux: Flags.boolean({ description: 'CEL healthCheckExprs for a Flux Kustomization' }),
    'helm-values': Flags.boolean({
      description: "with --argocd: the argo-cd Helm chart's values (configs.cm) instead of a ConfigMap",
    }),
    all: Flags.boolean({ description: "every kind of a release (needs --crds) instead of the cluster's" }),
    kind: Flags.string({
      multiple: true,
      description: 'only this kind: kind, plural, short name or kind.group, case-insensitive (repeatable)',
    }),
    crds: Flags.string({ description: "with --all: the release's CRD files (a file or folder)" }),
    output: Flags.option({
      char: 'o',
      options: healthRulesFormats,
      default: 'yaml' as const,
      description: 'output format',
    })(),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(HealthRules);
    const plan = healthRulesPlanOf(flags, () => connect(kubeconfigOptionsOf(flags)));
    const rules = await healthRules(plan.source, plan.target);
    process.stdout.write(renderHealthRules(rules, flags.output));
  }
}
