import { readableStatuses, type StateTest, stateRules } from '../status/state-rules.ts';
import {
  type FluxVerdict,
  noRuleVerdict,
  reconcilePolicyAnnotation,
  type VerdictTest,
  verdictRules,
} from './verdicts.ts';

/**
 * Flux `healthCheckExprs` in CEL, emitted from the same tables `kubectl aso status` classifies by
 * (`stateRules`) and the mapping to verdicts (`verdictRules`). Flux binds the object's top-level fields as
 * variables (`metadata`, `status`, ...), parses without type checking, and enables optional syntax
 * (`.?field`, `orValue`), which these use to read fields that may be absent. CEL has no `let` in Flux's
 * environment, so intermediate values are bound by `[value].exists(name, ...)` over a one-item list.
 */

function quoted(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function oneOf(variable: string, values: readonly string[]): string {
  return values.length === 1
    ? `${variable} == ${quoted(values[0] as string)}`
    : `${variable} in [${values.map(quoted).join(', ')}]`;
}

function flag(variable: string, wanted: boolean): string {
  return wanted ? variable : `!${variable}`;
}

function conjunction(parts: string[]): string {
  return parts.length === 0 ? 'true' : parts.join(' && ');
}

function stateTestCel(test: StateTest): string {
  const parts: string[] = [];
  if (test.readable !== undefined) parts.push(flag('b[0]', test.readable));
  if (test.deleting !== undefined) parts.push(flag('b[1]', test.deleting));
  if (test.status) parts.push(oneOf('f[0]', test.status));
  if (test.severity) parts.push(oneOf('f[1]', test.severity));
  if (test.reason) parts.push(oneOf('f[2]', test.reason));
  return conjunction(parts);
}

function verdictTestCel(test: VerdictTest): string {
  const parts: string[] = [];
  if (test.stale !== undefined) parts.push(flag('b[2]', test.stale));
  if (test.skip !== undefined) parts.push(flag('b[3]', test.skip));
  if (test.state) parts.push(oneOf('state', test.state));
  return conjunction(parts);
}

// A last row that always holds is the chain's `otherwise`.
function ternary(branches: Array<[string, string]>, otherwise: string): string {
  const last = branches.at(-1);
  if (last && last[0] === 'true') return ternary(branches.slice(0, -1), last[1]);
  return `${branches.map(([test, value]) => `${test} ? ${value} : `).join('')}${otherwise}`;
}

function text(field: string): string {
  return `(type(c.?${field}.orValue(0)) == string ? c.${field} : '')`;
}

// Three comparisons rather than `in [int, uint, double]`: Flux's environment wants list literals of one type.
function isNumber(optionalPath: string): string {
  const type = `type(${optionalPath}.orValue(''))`;
  return `(${type} == int || ${type} == uint || ${type} == double)`;
}

/** The one CEL expression that holds when the object's verdict is `verdict`. */
export function celVerdictExpression(verdict: FluxVerdict): string {
  const conditions = '(type(status.?conditions.orValue(0)) == list ? status.conditions : [])';
  const ready = `${conditions}.filter(x, type(x) == map && x.?type.orValue(0) == 'Ready')`;
  const deleting = 'type(metadata.?deletionTimestamp.orValue(0)) == string';
  const stale = `!(${deleting}) && ${isNumber('c.?observedGeneration')} && ${isNumber('metadata.?generation')} && c.observedGeneration < metadata.generation`;
  const skip = `metadata.?annotations.orValue({})[?${quoted(reconcilePolicyAnnotation)}].orValue('') == 'skip'`;
  const facts = `[[${text('status')}, ${text('severity')}, ${text('reason')}]]`;
  const booleans = `[[size(r) > 0 && ${oneOf('f[0]', readableStatuses)}, ${deleting}, ${stale}, ${skip}]]`;
  const state = ternary(
    stateRules.map((rule) => [stateTestCel(rule.when), quoted(rule.state)]),
    "'Unknown'",
  );
  const verdictOfState = ternary(
    verdictRules.map((rule) => [verdictTestCel(rule.when), quoted(rule.flux)]),
    quoted(noRuleVerdict.flux),
  );
  return [
    `[${ready}].exists(r, `,
    `[size(r) > 0 ? r[0] : {}].exists(c, `,
    `${facts}.exists(f, `,
    `${booleans}.exists(b, `,
    `[${state}].exists(state, `,
    `(${verdictOfState}) == ${quoted(verdict)})))))`,
  ].join('');
}
