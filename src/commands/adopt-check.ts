import { Args, Flags } from '@oclif/core';
import { subscriptionFlag } from '../lib/adoption/arm-id-input.ts';
import { adoptInputOf } from '../lib/adoption/input.ts';
import { spinnerFor } from '../lib/adoption/progress.ts';
import { adoptFailOn, matchesFailOn } from '../lib/adoption/report.ts';
import { runAdoptCheck } from '../lib/adoption/run.ts';
import { AsoCommand } from '../lib/cli/aso-command.ts';
import { azureCredentialFlags } from '../lib/cli/azure-flags.ts';
import { kubeconfigOptionsOf, kubeFlags } from '../lib/cli/kube-flags.ts';
import { outputFlags } from '../lib/cli/output-flags.ts';
import { exitCodes } from '../lib/exit-codes.ts';
import { connect } from '../lib/kube/connect.ts';
import { adoptTable } from '../lib/render/adopt-check-table.ts';
import { printResult } from '../lib/render/output.ts';

export default class AdoptCheck extends AsoCommand {
  static override summary = 'Before applying: which resources already exist in Azure and what ASO would do';
  static override description =
    'Read-only: GETs in the cluster and in Azure, never a write. Outcomes: create, adopt-manage (kubectl delete will delete an existing resource), adopt-detach-on-delete, skip-exists, skip-missing, already-managed, rejected, unknown. With --from-cluster, the objects already applied: what the next reconcile would send against what Azure holds now (drift), each object read at the version it was applied at.';
  static override strict = false;
  static override args = {
    objects: Args.string({
      description: 'KIND/NAME with --from-cluster (repeatable; default: every object)',
    }),
  };
  static override examples = [
    '<%= config.bin %> adopt-check -f db.yaml',
    '<%= config.bin %> adopt-check -R -f manifests/ -o wide',
    '<%= config.bin %> adopt-check --from-cluster -A -o json',
    '<%= config.bin %> adopt-check --from-cluster -n app FlexibleServer/pg',
    'cat app.yaml | <%= config.bin %> adopt-check -f - --fail-on delete-risk',
  ];
  static override flags = {
    ...kubeFlags,
    ...outputFlags,
    filename: Flags.string({
      char: 'f',
      multiple: true,
      description: 'file, folder or - (stdin) (repeatable)',
    }),
    'from-cluster': Flags.boolean({
      description: 'plan for the ASO objects already in the cluster (-n, -A, -l, KIND/NAME) instead of files',
    }),
    'all-namespaces': Flags.boolean({ char: 'A', description: 'with --from-cluster: every namespace' }),
    selector: Flags.string({ char: 'l', description: 'with --from-cluster: label selector, e.g. app=web' }),
    recursive: Flags.boolean({ char: 'R', description: 'walk folders given with -f recursively' }),
    subscription: Flags.string({
      description: 'the subscription ID (default: the one in the credential the operator would use)',
    }),
    ...azureCredentialFlags,
    concurrency: Flags.integer({ min: 1, default: 16, description: 'Azure GETs in flight at once' }),
    'retry-deadline': Flags.integer({
      min: 1,
      default: 60,
      description:
        'seconds to keep retrying one Azure GET that is throttled (429) or failing (5xx); then it is unknown',
    }),
    'fail-on': Flags.option({
      options: adoptFailOn,
      description: `exit ${exitCodes.failOn.code} when any resource would be adopted, adopted under manage (delete-risk), changed, or is unknown`,
    })(),
    verbose: Flags.boolean({ char: 'v', description: 'name the non-ASO objects passed over' }),
  };

  async run(): Promise<void> {
    const { flags, argv } = await this.parse(AdoptCheck);
    if (flags.subscription !== undefined) subscriptionFlag(flags.subscription);
    const { set, client, warnings, crds } = await adoptInputOf(
      { ...flags, fromCluster: flags['from-cluster'], objects: argv as string[] },
      () => connect(kubeconfigOptionsOf(flags)),
    );
    const { armReaderOf, mapBounded } = await import('../lib/azure/arm-reader.ts');
    const { Limiter } = await import('../lib/azure/limiter.ts');
    const inFlight = new Limiter(flags.concurrency);
    const spinner = spinnerFor(process.stderr, flags.output);
    const report = await runAdoptCheck(set, {
      client,
      crds,
      defaultNamespace: flags.namespace || client?.kubeconfig.namespace || 'default',
      operatorNamespace: flags['operator-namespace'],
      subscription: flags.subscription,
      credential: flags.credential,
      concurrency: flags.concurrency,
      readerOf: (mode, settings) =>
        armReaderOf(mode, settings, process.env, { deadlineMs: flags['retry-deadline'] * 1000 }, inFlight),
      mapBounded,
      progress: spinner.report,
    }).finally(() => spinner.stop());
    report.warnings.unshift(...warnings);
    if (flags.verbose) for (const name of set.passedOver) report.warnings.push(`passed over: ${name}`);
    await printResult(report, flags.output, adoptTable, { color: flags.color });
    const failOn = flags['fail-on'];
    if (failOn && report.items.some((item) => matchesFailOn(item, failOn)))
      await this.exitAfterOutput(exitCodes.failOn.code);
    if (report.items.some((item) => matchesFailOn(item, 'unknown')))
      await this.exitAfterOutput(exitCodes.partial.code);
  }
}
