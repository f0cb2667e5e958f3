import { describe, expect, it } from 'vitest';
import { shapeOf, skippedPropertyShape } from '../../src/codegen/conversions/skipped-property-shape.ts';
import type { PackageDef, PropertyDef, TypeDef, TypeRef } from '../../src/codegen/model/types.ts';

const object = (name: string): TypeRef => ({ kind: 'object', name });
const text: TypeRef = { kind: 'primitive', primitive: 'string' };
const flag: TypeRef = { kind: 'primitive', primitive: 'boolean' };
const prop = (name: string, type: TypeRef): PropertyDef => ({ name, type, required: false });

function pkg(version: string, types: TypeDef[]): PackageDef {
  return {
    group: 'apimanagement',
    version,
    armApiVersion: version,
    prefix: 'ga',
    storage: true,
    preview: false,
    types: new Map(types.map((t) => [t.name, t])),
    resources: [],
  };
}

// Backend's chain in miniature: preview -> v1 -> hub, `breaker` at the preview and the hub but not at v1.
const rule = (withRetry: boolean): TypeDef => ({
  kind: 'object',
  name: 'Rule',
  properties: [prop('name', text), ...(withRetry ? [prop('acceptRetryAfter', flag)] : [])],
});
const spec = (withBreaker: boolean, extra: PropertyDef[] = []): TypeDef => ({
  kind: 'object',
  name: 'Backend_Spec',
  properties: [
    prop('url', text),
    ...(withBreaker ? [prop('breaker', { kind: 'array', element: object('Rule') })] : []),
    ...extra,
  ],
});
const preview = pkg('preview', [spec(true), rule(false)]);
const middle = pkg('v1', [spec(false)]);
const hub = pkg('hub', [spec(true), rule(true)]);
const hubBreaker: TypeRef = { kind: 'array', element: object('Rule') };
const breaker = prop('breaker', hubBreaker);

describe('the shape a bag keeps for a property that skips a storage version', () => {
  it('is the shape of the version below that has it, when that differs from the version above', () => {
    const shape = skippedPropertyShape(middle, 'Backend_Spec', breaker, hub, hubBreaker, (p) =>
      p === middle ? [preview] : [],
    );
    expect(shape?.pkg).toBe(preview);
    expect(shape?.type).toEqual(hubBreaker);
  });

  it('is none when the shapes agree (the operator writes no compat type), or nothing below has it', () => {
    const samePreview = pkg('preview', [spec(true), rule(true)]);
    expect(
      skippedPropertyShape(middle, 'Backend_Spec', breaker, hub, hubBreaker, (p) =>
        p === middle ? [samePreview] : [],
      ),
    ).toBeUndefined();
    expect(skippedPropertyShape(middle, 'Backend_Spec', breaker, hub, hubBreaker, () => [])).toBeUndefined();
  });

  it('is found through versions below that lack the property too', () => {
    const lower = pkg('v0', [spec(false)]);
    const shape = skippedPropertyShape(middle, 'Backend_Spec', breaker, hub, hubBreaker, (p) =>
      p === middle ? [lower] : p === lower ? [preview] : [],
    );
    expect(shape?.pkg).toBe(preview);
  });

  it('compares structure, not names, and stops at a type that refers to itself', () => {
    expect(shapeOf(preview, object('Rule'))).toBe('{name:string}');
    expect(shapeOf(hub, object('Rule'))).toBe('{acceptRetryAfter:boolean,name:string}');
    const tree = pkg('t', [
      {
        kind: 'object',
        name: 'Node',
        properties: [prop('children', { kind: 'array', element: object('Node') })],
      },
    ]);
    expect(shapeOf(tree, object('Node'))).toBe('{children:[@node]}');
  });
});
