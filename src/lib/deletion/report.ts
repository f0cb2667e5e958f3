import type { PolicySource, ReconcilePolicy } from '../adoption/effective-policy.ts';
import type { GroupListing } from '../azure/resource-group-lister.ts';
import type { ExitCodeName } from '../exit-codes.ts';
import type { GraphWarning } from '../graph/model.ts';

/**
 * What happens in Azure when the object goes: its own policy deletes it (`deletes`); it keeps it but an
 * owner deleted in Azure takes it along (`deleted-with-owner`: Azure deletes what a resource contains); it
 * is kept (`keeps`); or it has no Azure resource yet (`none`: never created, no `status.id`).
 */
export type AzureOutcome = 'deletes' | 'deleted-with-owner' | 'keeps' | 'none';

/** One object of the Kubernetes cascade. */
export interface CascadeItem {
  id: string;
  namespace: string | null;
  kind: string;
  group: string;
  name: string;
  armId: string | null;
  policy: ReconcilePolicy;
  policySource: PolicySource;
  azure: AzureOutcome;
  /** For `deleted-with-owner`: the owner whose deletion takes it along. */
  via: string | null;
}

/** One resource a deleted resource group holds, and the ASO object that declares it, if any. */
export interface GroupResource {
  id: string;
  type: string;
  name: string;
  /** The node id of the ASO object whose `status.id` is this resource, null when none declares it. */
  declaredBy: string | null;
}

/** A resource group the delete would remove in Azure, and what ARM says it holds. */
export interface DeletedGroup {
  /** The ResourceGroup object deleting it. */
  object: string;
  armId: string;
  listing: GroupListing['state'];
  /** Why the group could not be listed (forbidden, error), or empty. */
  message: string;
  resources: GroupResource[];
  /** How many resources of the group no ASO object declares: data no one declared, lost with the group. */
  undeclared: number;
}

/** What `delete-check` prints with `-o json|yaml`. */
export interface DeleteCheckReport {
  cascade: CascadeItem[];
  resourceGroups: DeletedGroup[];
  /** Undeclared resources over every deleted group. */
  undeclared: number;
  warnings: GraphWarning[];
}

/**
 * The exit code: `undeclaredLoss` when any deleted group holds a resource no ASO object declares (the
 * delete would lose data no one declared), else `partial` when something could not be read or listed (the
 * answer is incomplete), else `ok`.
 */
export function deleteCheckExit(report: DeleteCheckReport): ExitCodeName {
  if (report.undeclared > 0) return 'undeclaredLoss';
  if (
    report.warnings.length > 0 ||
    report.resourceGroups.some((group) => group.listing === 'forbidden' || group.listing === 'error')
  ) {
    return 'partial';
  }
  return 'ok';
}
