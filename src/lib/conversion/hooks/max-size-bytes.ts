import type { PropertyBag } from '../property-bag.ts';

/**
 * `maxSizeBytes` of Microsoft.Sql databases: a decimal string at 2014-04-01, an integer from 2021-11-01.
 * A string converts only when it is exactly the canonical text of an integer (`String(Number(s)) === s`), so
 * that the way back reproduces the same text; anything else stays in the property bag, where the generated
 * stash put it.
 */
export function maxSizeBytesUp(bag: PropertyBag, assign: (value: number) => void): void {
  const value = bag.get('maxSizeBytes');
  if (typeof value !== 'string') return;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || String(parsed) !== value) return;
  assign(parsed);
  bag.remove('maxSizeBytes');
}

/** The way down: an integer (stashed by the generated code) becomes its decimal string again. */
export function maxSizeBytesDown(bag: PropertyBag, assign: (value: string) => void): void {
  const value = bag.get('maxSizeBytes');
  if ((typeof value === 'number' && Number.isInteger(value)) || typeof value === 'string') {
    // A string is one that did not convert on the way up: it goes back unchanged.
    assign(String(value));
    bag.remove('maxSizeBytes');
  }
}
