/**
 * Canonical enum spelling, as the operator gives it: converting into an API version, ASO's generated code
 * looks a string enum value up case-insensitively among that version's values (`genruntime.ToEnum`) and
 * takes the declared spelling when one matches; any other value passes through unchanged, because a value
 * an older or newer version allows must survive a round trip. Storage versions hold plain strings, so
 * nothing is rewritten on the way into them.
 */

/** The values of one string enum, keyed by their lower-case form; built once per generated module. */
export type EnumSpellings = ReadonlyMap<string, string>;

/** Builds the lookup for one enum's declared values; the first spelling of a lower-case form wins. */
export function enumSpellings(values: readonly string[]): EnumSpellings {
  const spellings = new Map<string, string>();
  for (const value of values) {
    const key = value.toLowerCase();
    if (!spellings.has(key)) spellings.set(key, value);
  }
  return spellings;
}

/** The declared spelling of `value` when it matches one case-insensitively, else `value` itself. */
export function canonicalEnum(value: string, spellings: EnumSpellings): string {
  return spellings.get(value.toLowerCase()) ?? value;
}
