import { readableStatuses, type StateTest, stateRules } from '../status/state-rules.ts';
import { noRuleVerdict, reconcilePolicyAnnotation, type VerdictTest, verdictRules } from './verdicts.ts';

/**
 * The Argo CD health script for an ASO kind, in Lua, emitted from the same tables `kubectl aso status`
 * classifies by (`stateRules`) and the mapping to verdicts (`verdictRules`). Argo CD runs it with the object
 * in the global `obj` and reads the table it returns (`status`, `message`). Every ASO kind gets the same
 * script: the Ready condition is common to all of them.
 */

function quoted(text: string): string {
  return JSON.stringify(text);
}

function oneOf(variable: string, values: readonly string[]): string {
  const tests = values.map((value) => `${variable} == ${quoted(value)}`);
  return tests.length === 1 ? (tests[0] as string) : `(${tests.join(' or ')})`;
}

function flag(variable: string, wanted: boolean): string {
  return wanted ? variable : `not ${variable}`;
}

function stateTestLua(test: StateTest): string {
  const parts: string[] = [];
  if (test.readable !== undefined) parts.push(flag('readable', test.readable));
  if (test.deleting !== undefined) parts.push(flag('deleting', test.deleting));
  if (test.status) parts.push(oneOf('st', test.status));
  if (test.severity) parts.push(oneOf('sev', test.severity));
  if (test.reason) parts.push(oneOf('rsn', test.reason));
  return parts.length === 0 ? 'true' : parts.join(' and ');
}

function verdictTestLua(test: VerdictTest): string {
  const parts: string[] = [];
  if (test.stale !== undefined) parts.push(flag('stale', test.stale));
  if (test.skip !== undefined) parts.push(flag('skip', test.skip));
  if (test.state) parts.push(oneOf('state', test.state));
  return parts.length === 0 ? 'true' : parts.join(' and ');
}

// A last row that always holds is the chain's `else`.
function chain(branches: Array<[string, string]>, otherwise: string): string[] {
  const last = branches.at(-1);
  if (last && last[0] === 'true') return chain(branches.slice(0, -1), last[1]);
  const lines = branches.map(
    ([test, body], index) => `${index === 0 ? 'if' : 'elseif'} ${test} then ${body}`,
  );
  return [...lines, `else ${otherwise} end`];
}

/** The Lua health script (one for every ASO kind). */
export function luaHealthScript(): string {
  const stateLines = chain(
    stateRules.map((rule) => [stateTestLua(rule.when), `state = ${quoted(rule.state)}`]),
    'state = "Unknown"',
  );
  const verdictLines = chain(
    verdictRules.map((rule) => [verdictTestLua(rule.when), `hs.status = ${quoted(rule.argocd)}`]),
    `hs.status = ${quoted(noRuleVerdict.argocd)}`,
  );
  return [
    '-- kubectl aso health-rules: the Ready condition read as `kubectl aso status` reads it',
    'local hs = {}',
    'local function str(v) if type(v) == "string" then return v end return "" end',
    'local meta = type(obj.metadata) == "table" and obj.metadata or {}',
    'local c = nil',
    'if type(obj.status) == "table" and type(obj.status.conditions) == "table" then',
    '  for _, x in ipairs(obj.status.conditions) do',
    '    if type(x) == "table" and x.type == "Ready" then c = x break end',
    '  end',
    'end',
    'local cond = c or {}',
    'local st, sev, rsn = str(cond.status), str(cond.severity), str(cond.reason)',
    `local readable = c ~= nil and ${oneOf('st', readableStatuses)}`,
    'local deleting = type(meta.deletionTimestamp) == "string"',
    'local og, gen = cond.observedGeneration, meta.generation',
    'local stale = not deleting and type(og) == "number" and type(gen) == "number" and og < gen',
    'local ann = type(meta.annotations) == "table" and meta.annotations or {}',
    `local skip = ann[${quoted(reconcilePolicyAnnotation)}] == "skip"`,
    'local state',
    ...stateLines,
    ...verdictLines,
    'local msg = state',
    'if stale then msg = msg .. " (stale)" end',
    'if skip then msg = msg .. " (reconcile-policy skip)" end',
    'if rsn ~= "" then msg = msg .. ": " .. rsn end',
    'if str(cond.message) ~= "" then msg = msg .. ": " .. str(cond.message) end',
    'hs.message = msg',
    'return hs',
    '',
  ].join('\n');
}
