import { disagreementReport, figuresLine, type KindFigures } from './random-pairs.ts';

/**
 * What the differential test asserts of one kind, as the background comparison (comparison-job.ts) writes
 * it: one JSON line per kind, so the test process reads plain data instead of the figures' Maps.
 */
export interface ComparisonRecord {
  /** `group/Kind`. */
  readonly key: string;
  /** Random objects per version pair this kind was compared at. */
  readonly count: number;
  /** The figures as the test prints them (figuresLine). */
  readonly line: string;
  /** Every unexplained disagreement, with the object that shows it (disagreementReport). */
  readonly report: readonly string[];
  /** Conversions compared per version pair. */
  readonly comparedPerPair: readonly number[];
  readonly compared: number;
  readonly leaves: number;
  /** Storage versions both sides have: with two or more, each side's bags reach the other. */
  readonly sharedStorage: number;
  readonly bagEntries: number;
}

/** The record of `figures`, compared at `count` objects per pair. */
export function comparisonRecord(figures: KindFigures, count: number): ComparisonRecord {
  return {
    key: `${figures.kind.group}/${figures.kind.kind}`,
    count,
    line: figuresLine(figures),
    report: disagreementReport(figures),
    comparedPerPair: figures.pairs.map((pair) => pair.compared),
    compared: figures.compared,
    leaves: figures.leaves,
    sharedStorage: figures.kind.shared.filter((version) => version.endsWith('storage')).length,
    bagEntries: figures.bags.entries,
  };
}
