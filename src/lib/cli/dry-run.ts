/** The values `--dry-run` takes, as in kubectl. */
export const dryRunModes = ['none', 'client', 'server'] as const;

/**
 * kubectl's bare `--dry-run` (without a value) means `client`, and scripts still pass it so; the flag takes a
 * value otherwise (`--dry-run=server`, `--dry-run server`). oclif cannot parse a flag whose value is
 * optional, so a bare one is spelled out before parsing.
 */
export function withBareDryRun(argv: readonly string[]): string[] {
  return argv.map((arg, i) =>
    arg === '--dry-run' && !(dryRunModes as readonly string[]).includes(argv[i + 1] ?? '')
      ? '--dry-run=client'
      : arg,
  );
}
