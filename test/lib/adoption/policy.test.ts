import { describe, expect, it } from 'vitest';
import { effectivePolicyOf, operatorDefaultProblem } from '../../../src/lib/adoption/effective-policy.ts';
import { outcomeOf } from '../../../src/lib/adoption/outcome.ts';

const P = 'serviceoperator.azure.com/reconcile-policy';
const IE = 'serviceoperator.azure.com/reconcile-policy-if-exists';

describe('effectivePolicyOf', () => {
  it('takes the object, else the namespace, else the operator default, else manage', () => {
    expect(
      effectivePolicyOf(
        { [P]: 'skip' },
        { namespaceAnnotation: 'detach-on-delete', operatorDefault: 'skip' },
      ),
    ).toMatchObject({ policy: 'skip', policySource: 'object' });
    expect(
      effectivePolicyOf({}, { namespaceAnnotation: 'detach-on-delete', operatorDefault: 'skip' }),
    ).toMatchObject({ policy: 'detach-on-delete', policySource: 'namespace' });
    expect(effectivePolicyOf({}, { operatorDefault: 'skip' })).toMatchObject({
      policy: 'skip',
      policySource: 'operator',
    });
    expect(effectivePolicyOf(undefined, {})).toMatchObject({ policy: 'manage', policySource: 'default' });
  });
  it('treats an unknown value as the default', () => {
    expect(
      effectivePolicyOf(
        { [P]: 'bogus' },
        { namespaceAnnotation: 'skip', operatorDefault: 'detach-on-delete' },
      ),
    ).toMatchObject({ policy: 'detach-on-delete', policySource: 'operator' });
  });
  it("reads an empty annotation on the object as none, going on to the Namespace's, as the operator does", () => {
    expect(
      effectivePolicyOf({ [P]: '' }, { namespaceAnnotation: 'skip', operatorDefault: 'detach-on-delete' }),
    ).toMatchObject({ policy: 'skip', policySource: 'namespace' });
    expect(effectivePolicyOf({ [P]: '' }, { operatorDefault: 'detach-on-delete' })).toMatchObject({
      policy: 'detach-on-delete',
      policySource: 'operator',
    });
  });
  it('names a DEFAULT_RECONCILE_POLICY the operator would refuse to start with, without its value', () => {
    for (const fine of [undefined, '', 'manage', 'detach-on-delete', 'skip'])
      expect(operatorDefaultProblem(fine, 'ns/s')).toBeUndefined();
    const problem = operatorDefaultProblem('Manage', 'ns/aso-controller-settings');
    expect(problem).toMatch(/DEFAULT_RECONCILE_POLICY in ns\/aso-controller-settings .*refuses to start/);
    expect(problem).not.toContain('Manage');
  });
  it('reads -if-exists from the object, else the operator', () => {
    expect(effectivePolicyOf({ [IE]: 'skip' }, { operatorIfExists: 'manage' })).toMatchObject({
      ifExists: 'skip',
      ifExistsSource: 'object',
    });
    expect(effectivePolicyOf({}, { operatorIfExists: 'detach-on-delete' })).toMatchObject({
      ifExists: 'detach-on-delete',
      ifExistsSource: 'operator',
    });
  });
});

describe('outcomeOf', () => {
  const manage = effectivePolicyOf({}, {});
  it('gives every outcome', () => {
    expect(outcomeOf(manage, { state: 'missing' }).outcome).toBe('create');
    expect(outcomeOf(manage, { state: 'exists' }).outcome).toBe('adopt-manage');
    expect(outcomeOf(effectivePolicyOf({ [P]: 'detach-on-delete' }, {}), { state: 'exists' }).outcome).toBe(
      'adopt-detach-on-delete',
    );
    expect(outcomeOf(effectivePolicyOf({ [P]: 'skip' }, {}), { state: 'exists' }).outcome).toBe(
      'skip-exists',
    );
    expect(outcomeOf(effectivePolicyOf({ [P]: 'skip' }, {}), { state: 'missing' }).outcome).toBe(
      'skip-missing',
    );
    expect(
      outcomeOf(effectivePolicyOf({ [P]: 'skip', [IE]: 'manage' }, {}), { state: 'missing' }).outcome,
    ).toBe('rejected');
    expect(outcomeOf(manage, { state: 'unknown', reason: 'no permission' })).toMatchObject({
      outcome: 'unknown',
      reason: 'no permission',
    });
    expect(outcomeOf(manage, { state: 'exists' }, '/subscriptions/x').outcome).toBe('already-managed');
  });
  it('labels answers resting on the proposed -if-exists', () => {
    const answer = outcomeOf(effectivePolicyOf({}, { operatorIfExists: 'skip' }), { state: 'exists' });
    expect(answer).toMatchObject({ outcome: 'skip-exists', proposed: true });
    expect(answer.reason).toMatch(/proposed/);
    expect(
      outcomeOf(effectivePolicyOf({}, { operatorIfExists: 'skip' }), { state: 'missing' }).proposed,
    ).toBe(false);
  });
  it('says whether a missing parent is created from the same files', () => {
    expect(
      outcomeOf(manage, { state: 'parent-missing', parentCreatedHere: true, code: 'ResourceGroupNotFound' })
        .reason,
    ).toMatch(/same files/);
  });
});
