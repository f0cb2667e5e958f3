import type { ResourceType } from '../kube/paths.ts';

/** How objects of a CRD are rewritten: `--strategy` chooses, `auto` picks per CRD. */
export const strategyChoices = ['auto', 'server', 'client'] as const;
/** One of {@link strategyChoices}. */
export type StrategyChoice = (typeof strategyChoices)[number];
/** The strategy a CRD ends up with; `none` when there is nothing to rewrite or it is skipped. */
export type Strategy = 'server' | 'client' | 'none';

/**
 * What the plan does with one CRD:
 * - `migrate`: rewrite its objects, then clean `status.storedVersions`;
 * - `clean`: nothing to do, `storedVersions` already holds only the target;
 * - `skip`: the target is not the storage version (or the CRD has no such version): nothing is written;
 * - `unavailable`: no strategy can rewrite it (the API server cannot convert its objects and client-side
 *   conversion is refused, see `reason`), or the one asked for is refused: nothing is written.
 */
export type CrdAction = 'migrate' | 'clean' | 'skip' | 'unavailable';

/** The plan for one CRD, as `--dry-run` prints it and the run follows it. */
export interface CrdPlan {
  name: string;
  kind: string;
  namespaced: boolean;
  /** The CRD's uid and generation when planned: a change of either means its storage may have moved. */
  uid: string;
  generation: number;
  /** When the CRD's spec last changed (server clock, ms), if known: see `settle.ts`. */
  specChangedAt: number | undefined;
  servedVersions: string[];
  storageVersion: string;
  storedVersions: string[];
  /** The version `--to` resolves to in this CRD; undefined when it names none. */
  target: string | undefined;
  action: CrdAction;
  strategy: Strategy;
  /**
   * Why the CRD is skipped or unavailable; on a `migrate`, why this strategy was chosen (and a note, e.g.
   * that the storage version is not served).
   */
  reason: string | undefined;
  /**
   * Why client-side conversion is refused for this CRD, or undefined when it is allowed. Decided when first
   * asked (and then kept): comparing schemas costs, and only a CRD that may need client-side pays for it,
   * including one whose server-side writes fail under `auto`.
   */
  clientRefusal: () => string | undefined;
  /**
   * How many objects may still be stored at an old version: every object while `storedVersions` names
   * another version (the API server cannot tell which; etcd can, and a client should not read etcd), 0
   * once it does not. Undefined when they could not be counted (see `reason`).
   */
  objectsToCheck: number | undefined;
  /** The resource type to read and write objects at (the target when served). */
  access: ResourceType;
}

/** The plan for a whole run. */
export interface MigrationPlan {
  /** `--to` as given. */
  target: string;
  crds: CrdPlan[];
  warnings: string[];
}
