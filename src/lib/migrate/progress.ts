/**
 * What a migration tells a progress display, CRD by CRD. It exists so the run stays free of terminal
 * concerns: the command chooses a bar on a terminal, and tests or pipes get plain lines.
 */
export interface MigrationProgress {
  /** A CRD's rewrite begins; `total` is the plan's object count, when it could count. */
  start(crd: string, total: number | undefined): void;
  /**
   * A batch of `batchSize` objects is done: `done` objects in all for this CRD (a resumed run's saved counts
   * included), and the batch's plain line.
   */
  advance(crd: string, done: number, batchSize: number, line: string): void;
  /** The CRD's rewrite ended (finished, stopped or interrupted). */
  end(crd: string): void;
}
