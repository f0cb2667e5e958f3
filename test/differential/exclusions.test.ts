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

describe("the differential test's one exclusion: a condition's zero lastTransitionTime", () => {
  it("explains the operator's null against an unset lastTransitionTime, there only", () => {
    expect(names(at('status.conditions[].lastTransitionTime', undefined, null))).toEqual(['go-zero-time']);
    expect(
      names(at('status.conditions[]', { type: 'Ready' }, { type: 'Ready', lastTransitionTime: null })),
    ).toEqual(['go-zero-time']);
    expect(exclusionsFor(at('spec.lastTransitionTime', undefined, null))).toBe(undefined);
    expect(
      exclusionsFor(at('status.conditions[].lastTransitionTime', undefined, '2024-01-01T00:00:00Z')),
    ).toBe(undefined);
  });

  it('explains no other Go zero value: convert() writes those as the operator does', () => {
    expect(exclusionsFor(at('spec.azureName', '', undefined))).toBe(undefined);
    expect(exclusionsFor(at('spec.owner', { name: '' }, {}))).toBe(undefined);
    expect(exclusionsFor(at('spec.credentials', undefined, { name: '' }))).toBe(undefined);
    expect(exclusionsFor(at('status.conditions[].type', undefined, ''))).toBe(undefined);
  });

  it('explains no empty list or map: convert() leaves them out as the operator does', () => {
    expect(exclusionsFor(at('spec.networkAcls.ipRules', [], undefined))).toBe(undefined);
    expect(exclusionsFor(at('spec.cors', { corsRules: [] }, undefined))).toBe(undefined);
    const ours = '{"type":"UserAssigned","userAssignedIdentities":{},"tenantId":"t"}';
    expect(
      exclusionsFor(at('status.$propertyBag.Identity', ours, '{"tenantId":"t","type":"UserAssigned"}')),
    ).toBe(undefined);
  });
});
