/**
 * Every exit code kubectl-aso can return, in one table, so that scripts and CI can rely on them and
 * `--help` can print them. A code is never reused for another meaning.
 */
export const exitCodes = {
  ok: { code: 0, meaning: 'success' },
  internal: { code: 1, meaning: 'unexpected internal error (a bug: please report it)' },
  usage: { code: 2, meaning: 'bad flags or arguments' },
  kubeconfig: { code: 3, meaning: 'kubeconfig missing or unusable, or unknown context' },
  unreachable: { code: 4, meaning: 'cluster unreachable or request timed out' },
  unauthorized: { code: 5, meaning: 'credentials rejected by the cluster (401)' },
  forbidden: { code: 6, meaning: 'forbidden by RBAC (403)' },
  notFound: { code: 7, meaning: 'a named object or resource type does not exist' },
  conflict: { code: 8, meaning: 'conflicting write; retry' },
  invalidInput: { code: 9, meaning: 'invalid input: a file, manifest or object could not be used' },
  partial: { code: 10, meaning: 'partial result: some resources could not be read (see warnings)' },
  failOn: { code: 11, meaning: '--fail-on matched: resources are at the named state or worse' },
  waitTimeout: { code: 12, meaning: '--wait timed out before every resource was Ready' },
  conversion: { code: 13, meaning: 'an object could not be converted between versions' },
  nothingSelected: { code: 14, meaning: '--wait found no resource matching the selection' },
  notImplemented: { code: 20, meaning: 'the command is not implemented yet' },
  interrupted: { code: 21, meaning: 'migrate was interrupted after saving its progress; rerun to resume' },
  migrationIncomplete: {
    code: 22,
    meaning:
      'migrate left CRDs with old stored versions (skipped, unavailable or failed objects; see report)',
  },
  manifestsChanged: {
    code: 23,
    meaning: 'migrate -f --diff: the manifests would change (as kubectl diff reports differences)',
  },
  undeclaredLoss: {
    code: 24,
    meaning: 'delete-check: the delete would remove Azure resources that no ASO object declares (see report)',
  },
  causeMissing: {
    code: 25,
    meaning:
      'explain: the cause is an object, secret or config map that is missing (or objects waiting on each other)',
  },
  causeRetrying: {
    code: 26,
    meaning: 'explain: the cause is an error the operator keeps retrying (severity Warning)',
  },
  causeFatal: {
    code: 27,
    meaning: 'explain: the cause is an error the operator gave up on until the spec changes (Error)',
  },
  upgradeBlocked: {
    code: 28,
    meaning: 'upgrade-check: something breaks in the upgrade (blocking findings; each with its fix)',
  },
  upgradeWarnings: {
    code: 29,
    meaning: 'upgrade-check: only warnings, nothing that blocks the upgrade',
  },
  // Signals: the shell's 128 + signal number. Commands without a handler die of the signal; migrate exits
  // so itself on a second one (the first finishes the batch in flight and exits 21).
  sigint: { code: 130, meaning: 'interrupted by Ctrl-C (SIGINT) before finishing' },
  sigterm: { code: 143, meaning: 'stopped by SIGTERM before finishing' },
} as const;

/** The name of one row of {@link exitCodes}; errors and results refer to codes by name. */
export type ExitCodeName = keyof typeof exitCodes;

/** The exit-code table as plain text rows, for `--help` and the README. */
export function exitCodeRows(): Array<[number, string]> {
  return Object.values(exitCodes).map((row) => [row.code, row.meaning]);
}
