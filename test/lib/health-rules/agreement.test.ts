import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuleKind } from '../../../src/lib/health-rules/kinds.ts';
import {
  reconcilePolicyAnnotation,
  verdictOf,
  verdictRules,
  verdictTestHolds,
} from '../../../src/lib/health-rules/verdicts.ts';
import { readyStateOf, states } from '../../../src/lib/status/ready-state.ts';
import {
  evaluateRules,
  evaluatorToolchainPresent,
  gitopsEvaluatorBinary,
} from '../../fixtures/gitops-evaluator.ts';
import { asKind, type NamedObject, objectsInEveryState } from './objects.ts';
import { agreement, rulesOf } from './rules.ts';

/** One kind of each class: a top-level ARM resource, a child resource, a SQL-managed and a Graph-managed kind. */
const kindClasses: RuleKind[] = [
  { group: 'resources.azure.com', version: 'v1api20200601', kind: 'ResourceGroup' },
  { group: 'dbforpostgresql.azure.com', version: 'v20250801', kind: 'FlexibleServersDatabase' },
  { group: 'dbformysql.azure.com', version: 'v1', kind: 'User' },
  { group: 'entra.azure.com', version: 'v1', kind: 'SecurityGroup' },
];

const toolchain = evaluatorToolchainPresent('test/lib/health-rules/agreement.test.ts');

describe('the verdict mapping', () => {
  it('gives every state, stale or not, skipped or not, a row of its own', () => {
    for (const state of states)
      for (const stale of [false, true])
        for (const skip of [false, true])
          expect(verdictRules.some((rule) => verdictTestHolds(rule.when, { state, stale, skip }))).toBe(true);
  });

  it('maps Error to Degraded/failed, stale anything to Progressing/inProgress and skip to Suspended', () => {
    const byName = new Map(objectsInEveryState.map((named) => [named.name, verdictOf(named.object)]));
    expect(byName.get('Error')).toMatchObject({ argocd: 'Degraded', flux: 'failed' });
    expect(byName.get('Error (stale)')).toMatchObject({ argocd: 'Progressing', flux: 'inProgress' });
    expect(byName.get('Warning')).toMatchObject({ argocd: 'Progressing', flux: 'inProgress' });
    expect(byName.get('Ready')).toMatchObject({ argocd: 'Healthy', flux: 'current' });
    expect(byName.get('Ready, reconcile-policy skip')).toMatchObject({
      argocd: 'Suspended',
      flux: 'current',
    });
    expect(byName.get('Ready, reconcile-policy manage')).toMatchObject({
      argocd: 'Healthy',
      flux: 'current',
    });
    expect(byName.get('Ready (stale)')).toMatchObject({ argocd: 'Progressing', flux: 'inProgress' });
    expect(byName.get('Ready with a deletion timestamp')).toMatchObject({ argocd: 'Progressing' });
  });
});

describe.runIf(toolchain)("the generated rules in Argo CD's Lua and Flux's CEL", () => {
  const rules = rulesOf(kindClasses);

  beforeAll(async () => {
    await gitopsEvaluatorBinary();
  }, 600_000);

  it('load in both tools', async () => {
    const answers = await evaluateRules(rules, []);
    expect(answers.map((answer) => [answer.id, answer.luaError ?? '', answer.celErrors ?? []])).toEqual(
      rules.map((rule) => [rule.id, '', []]),
    );
  });

  it('reach the verdict status reaches, for objects in every state and every kind class', async () => {
    const cases: Array<{ kind: RuleKind; named: NamedObject; object: Record<string, unknown> }> = [];
    for (const kind of kindClasses)
      for (const named of objectsInEveryState)
        cases.push({ kind, named, object: asKind(named.object, `${kind.group}/${kind.version}`, kind.kind) });
    // Every state is covered, so that an agreement over these objects is an agreement over the states.
    const seen = new Set(cases.map(({ object }) => readyStateOf(object).state));
    expect([...seen].sort()).toEqual([...states].sort());
    const answers = await evaluateRules(
      rules,
      cases.map(({ object }) => object),
    );
    const disagreements: string[] = [];
    for (const [ruleIndex, answer] of answers.entries()) {
      expect(answer.verdicts).toHaveLength(cases.length);
      answer.verdicts.forEach((verdict, index) => {
        const entry = cases[index];
        if (!entry || entry.kind !== kindClasses[ruleIndex]) return;
        for (const problem of agreement(entry.object, verdict))
          disagreements.push(`${entry.kind.kind} / ${entry.named.name}: ${problem}`);
      });
    }
    expect(disagreements).toEqual([]);
  });

  it('reach the verdict status reaches for any mix of condition fields (generated objects)', async () => {
    const text = (values: unknown[]) => fc.option(fc.constantFrom(...values), { nil: undefined });
    const condition = fc.record(
      {
        type: fc.constantFrom('Ready', 'Ready', 'Other'),
        status: text(['True', 'False', 'Unknown', 'Maybe', 1, true]),
        severity: text(['Error', 'Warning', 'Info', '', 'Fatal', 7]),
        reason: text(['Deleting', 'Reconciling', 'Succeeded', '', 3]),
        message: text(['a message', '', 'with "quotes" and \\ and ü']),
        observedGeneration: text([1, 2, 3, '2']),
      },
      { requiredKeys: ['type'] },
    );
    const object = fc.record(
      {
        metadata: fc.record(
          {
            generation: text([1, 2, 3]),
            deletionTimestamp: text(['2024-01-01T00:00:00Z', 5]),
            annotations: text([
              { [reconcilePolicyAnnotation]: 'skip' },
              { [reconcilePolicyAnnotation]: 'manage' },
              {},
            ]),
          },
          { requiredKeys: [] },
        ),
        status: fc.record({ conditions: fc.array(condition, { maxLength: 3 }) }),
      },
      { requiredKeys: ['metadata', 'status'] },
    );
    const objects = fc.sample(object, { numRuns: 400, seed: 26 }) as Array<Record<string, unknown>>;
    const [answer] = await evaluateRules(rulesOf(kindClasses.slice(0, 1)), objects);
    const disagreements = (answer?.verdicts ?? []).flatMap((verdict, index) =>
      agreement(objects[index] as Record<string, unknown>, verdict).map(
        (problem) => `${JSON.stringify(objects[index])}: ${problem}`,
      ),
    );
    expect(answer?.verdicts).toHaveLength(objects.length);
    expect(disagreements.slice(0, 5)).toEqual([]);
  });
});
