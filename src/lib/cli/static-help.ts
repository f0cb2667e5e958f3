/** The width the build renders help pages at; a terminal at least this wide shows them unchanged. */
export const helpPageWidth = 80;

/**
 * The pre-rendered help page that answers `argv`, or undefined when oclif must run: `--help`, `-h`,
 * `help` and no arguments at all give the root page; `COMMAND --help` and `help COMMAND` give that
 * command's page. Anything else, including a terminal narrower than the pages, goes to oclif.
 */
export function staticHelpPage(
  argv: string[],
  commandIds: readonly string[],
  columns: number | undefined,
): string | undefined {
  if (columns !== undefined && columns < helpPageWidth) return undefined;
  const isHelpFlag = (arg: string | undefined) => arg === '--help' || arg === '-h';
  if (argv.length === 0 || (argv.length === 1 && (isHelpFlag(argv[0]) || argv[0] === 'help'))) return 'index';
  const [first, second] = argv;
  if (argv.length !== 2 || first === undefined || second === undefined) return undefined;
  if (commandIds.includes(first) && isHelpFlag(second)) return first;
  if (first === 'help' && commandIds.includes(second)) return second;
  return undefined;
}
