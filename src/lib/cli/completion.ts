import { states } from '../status/ready-state.ts';

/**
 * Cobra's shell completion directives, which kubectl passes on from a plugin's `:<directive>` line to the
 * shell: a bit set telling it what to do besides offering the candidates.
 */
export const directives = {
  default: 0,
  noSpace: 2,
  noFileComp: 4,
  filterFileExt: 8,
} as const;

/** One flag as oclif's manifest (oclif.manifest.json) describes it: all completion needs to know. */
export interface CompletionFlag {
  name: string;
  char?: string | undefined;
  type: 'boolean' | 'option';
  options?: readonly string[] | undefined;
  multiple?: boolean | undefined;
  allowNo?: boolean | undefined;
  hidden?: boolean | undefined;
  summary?: string | undefined;
  description?: string | undefined;
}

/** One command as oclif's manifest describes it. */
export interface CompletionCommand {
  id: string;
  summary?: string | undefined;
  hidden?: boolean | undefined;
  flags: Record<string, CompletionFlag>;
}

/** Values only the cluster or the kubeconfig knows, fetched after the words are understood. */
export type DynamicValues = 'namespaces' | 'contexts' | 'kinds';

/** What to answer: fixed candidates, or values to fetch and filter, and the directive. */
export interface CompletionPlan {
  /** `value` or `value\tdescription` lines, already filtered by what was typed. */
  candidates: string[];
  directive: number;
  /** Values to fetch, then keep those starting with `typed`, each printed after `prefix`. */
  dynamic?: { values: DynamicValues; typed: string; prefix: string } | undefined;
  /** The connection flags typed so far, so dynamic values come from the cluster the command would use. */
  connection: { kubeconfig?: string; context?: string; requestTimeout?: string };
}

/** String flags whose values are a fixed list, though the flag is not an oclif option (it takes lists). */
const listValues: Record<string, readonly string[]> = {
  state: states.map((state) => state.toLowerCase()),
};

/** String flags whose values come from the cluster or the kubeconfig. */
const dynamicValues: Record<string, DynamicValues> = {
  namespace: 'namespaces',
  context: 'contexts',
  kind: 'kinds',
};

/** The manifest files a `-f` takes; the shell completes folders and files with these extensions. */
const manifestExtensions = ['yaml', 'yml', 'json'];

function line(value: string, description: string | undefined): string {
  const first = description?.split('\n')[0]?.trim();
  return first ? `${value}\t${first}` : value;
}

function flagByWord(command: CompletionCommand, word: string): CompletionFlag | undefined {
  const flags = Object.values(command.flags);
  if (word.startsWith('--')) {
    const name = word.slice(2);
    return (
      command.flags[name] ??
      flags.find((flag) => flag.allowNo && flag.type === 'boolean' && `no-${flag.name}` === name)
    );
  }
  if (/^-[^-]$/.test(word)) return flags.find((flag) => flag.char === word.slice(1));
  return undefined;
}

/**
 * What to offer for the word being typed (`words`' last, possibly empty), after the words before it, for
 * the commands of oclif's manifest. Follows cobra's conventions, as kubectl users know them from kubectl
 * itself: commands, then flags when the word starts with `-`, values for a flag that takes one (as the
 * next word or after `=`), and nothing (no file names either) where nothing fits.
 */
export function completionPlan(
  words: readonly string[],
  commands: Record<string, CompletionCommand>,
): CompletionPlan {
  const typed = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const connection: CompletionPlan['connection'] = {};
  const none = (directive: number = directives.noFileComp): CompletionPlan => ({
    candidates: [],
    directive,
    connection,
  });
  if (before.length === 0) {
    if (typed.startsWith('-')) {
      return {
        candidates: ['--help', '--version'].filter((flag) => flag.startsWith(typed)),
        directive: 4,
        connection,
      };
    }
    const candidates = Object.values(commands)
      .filter((command) => !command.hidden && command.id.startsWith(typed))
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((command) => line(command.id, command.summary));
    return { candidates, directive: directives.noFileComp, connection };
  }
  const command = commands[before[0] ?? ''];
  if (!command) return none();

  // Walk the words after the command: which flags were given, and does the last one wait for its value?
  const given = new Set<string>();
  let pending: CompletionFlag | undefined;
  for (const word of before.slice(1)) {
    if (pending) {
      record(connection, pending.name, word);
      pending = undefined;
      continue;
    }
    if (word === '--') return none(directives.default);
    const equals = word.startsWith('--') ? word.indexOf('=') : -1;
    const flag = flagByWord(command, equals > 0 ? word.slice(0, equals) : word);
    if (!flag) continue;
    given.add(flag.name);
    if (equals > 0) record(connection, flag.name, word.slice(equals + 1));
    else if (flag.type === 'option') pending = flag;
  }
  if (pending) return valuesOf(pending, typed, '', connection);

  const equals = typed.startsWith('--') ? typed.indexOf('=') : -1;
  if (equals > 0) {
    const flag = flagByWord(command, typed.slice(0, equals));
    if (flag?.type !== 'option') return none();
    return valuesOf(flag, typed.slice(equals + 1), typed.slice(0, equals + 1), connection);
  }
  if (typed.startsWith('-')) {
    const candidates: string[] = [];
    for (const flag of Object.values(command.flags)) {
      if (flag.hidden || (given.has(flag.name) && !flag.multiple)) continue;
      const about = flag.summary ?? flag.description;
      if (flag.char && typed === '-') candidates.push(line(`-${flag.char}`, about));
      candidates.push(line(`--${flag.name}`, about));
      if (flag.allowNo) candidates.push(line(`--no-${flag.name}`, about));
    }
    if (!given.has('help')) candidates.push(line('--help', 'show help for the command'));
    return {
      candidates: candidates.filter((candidate) => candidate.startsWith(typed)),
      directive: directives.noFileComp,
      connection,
    };
  }
  return none();
}

function record(connection: CompletionPlan['connection'], flag: string, value: string): void {
  if (flag === 'kubeconfig') connection.kubeconfig = value;
  if (flag === 'context') connection.context = value;
  if (flag === 'request-timeout') connection.requestTimeout = value;
}

function valuesOf(
  flag: CompletionFlag,
  typed: string,
  prefix: string,
  connection: CompletionPlan['connection'],
): CompletionPlan {
  const dynamic = dynamicValues[flag.name];
  if (dynamic)
    return {
      candidates: [],
      directive: directives.noFileComp,
      dynamic: { values: dynamic, typed, prefix },
      connection,
    };
  if (flag.name === 'filename') {
    return { candidates: manifestExtensions, directive: directives.filterFileExt, connection };
  }
  if (flag.name === 'kubeconfig') return { candidates: [], directive: directives.default, connection };
  const fixed = flag.options ?? listValues[flag.name];
  if (!fixed) return { candidates: [], directive: directives.noFileComp, connection };
  // A list flag (`--state error,wa`) completes its last item, keeping the ones before it.
  const comma = flag.options ? -1 : typed.lastIndexOf(',');
  const head = typed.slice(0, comma + 1);
  const last = typed.slice(comma + 1);
  const candidates = fixed
    .filter((value) => value.startsWith(last))
    .map((value) => `${prefix}${head}${value}`);
  return { candidates, directive: directives.noFileComp, connection };
}
