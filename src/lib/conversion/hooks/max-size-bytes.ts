import type { PropertyBag } from '../property-bag.ts';

/**
 * `maxSizeBytes` of Microsoft.Sql databases: a decimal string at 2014-04-01, an integer from 2021-11-01.
 * A string converts only when it is exactly the canonical text of an integer (`String(Number(s)) === s`), so
 * that the way back reproduces the same text; anything else stays in the property bag, where the generated
 * stash put it.
 */
export function maxSizeBytesUp(bag: PropertyBag, assign: (value: number) => void): void {
  // The operator's key and encoding (a string stored raw): see property-bag.ts.
  const value = bag.getString('MaxSizeBytes');
  if (value === undefined) return;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || String(parsed) !== value) return;
  assign(parsed);
  bag.remove('MaxSizeBytes');
}

/**
 * The way down: an integer (stashed by the generated code as its JSON text) becomes its decimal string
 * again; a string that did not convert on the way up is stored raw and goes back unchanged. Either way the
 * stored text is the value.
 */
export function maxSizeBytesDown(bag: PropertyBag, assign: (value: string) => void): void {
  const value = bag.getString('MaxSizeBytes');
  if (value === undefined) return;
  assign(value);
  bag.remove('MaxSizeBytes');
}
