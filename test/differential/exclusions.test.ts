import { describe, expect, it } from 'vitest';
import type { Disagreement } from './agreement.ts';
import { exclusionsFor } from './exclusions.ts';

const at = (pattern: string, ours: unknown, operator: unknown): Disagreement => ({
  path: pattern,
  pattern,
  ours,
  operator,
});
const names = (disagreement: Disagreement) => exclusionsFor(disagreement)?.map((exclusion) => exclusion.name);

describe("the differential test's exclusions explain only Go's zero-value fields", () => {
  it('an empty list or map on one side is a disagreement: convert() leaves them out as the operator does', () => {
    expect(exclusionsFor(at('spec.networkAcls.ipRules', [], undefined))).toBe(undefined);
    expect(exclusionsFor(at('spec.cors', { corsRules: [] }, undefined))).toBe(undefined);
    const ours = '{"type":"UserAssigned","userAssignedIdentities":{},"tenantId":"t"}';
    expect(
      exclusionsFor(at('status.$propertyBag.Identity', ours, '{"tenantId":"t","type":"UserAssigned"}')),
    ).toBe(undefined);
  });

  it('a zero value against absence is go-value-field-zero only at a Go value-type field', () => {
    expect(names(at('spec.azureName', '', undefined))).toEqual(['go-value-field-zero']);
    expect(names(at('status.conditions[].lastTransitionTime', undefined, null))).toEqual([
      'go-value-field-zero',
    ]);
    expect(exclusionsFor(at('spec.location', '', undefined))).toBe(undefined);
    expect(exclusionsFor(at('spec.azureName', 'x', undefined))).toBe(undefined);
    expect(exclusionsFor(at('spec.azureName', 'x', ''))).toBe(undefined);
  });

  it("a whole secret's empty name (a SecretMapReference the config names) is a Go value field", () => {
    expect(names(at('spec.credentials', undefined, { name: '' }))).toEqual(['go-value-field-zero']);
    expect(names(at('spec.oauth2.grantTypes.authorizationCode', undefined, { name: '' }))).toEqual([
      'go-value-field-zero',
    ]);
    expect(exclusionsFor(at('spec.credentials', undefined, { name: 'logger-secret' }))).toBe(undefined);
  });

  it('explains an owner left with an empty name, but not an empty list beside it', () => {
    expect(names(at('spec', { owner: { name: '' } }, undefined))).toEqual(['go-value-field-zero']);
    expect(exclusionsFor(at('spec', { owner: { name: '' }, tags: [] }, undefined))).toBe(undefined);
  });

  it('a value present on one side only is never explained', () => {
    expect(exclusionsFor(at('spec.tags', { a: 'b' }, undefined))).toBe(undefined);
    expect(exclusionsFor(at('spec.networkAcls.ipRules', [{ value: '' }], undefined))).toBe(undefined);
  });
});
