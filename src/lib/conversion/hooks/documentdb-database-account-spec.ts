import type { DatabaseAccount_Spec_ConversionHooks } from '../../../../generated/documentdb/v1api20210515storage/hooks.ts';
import { referenceToArmId } from './reference-to-arm-id.ts';

/**
 * The operator's own step for Cosmos DB accounts between the 2021-05-15 and 2023-11-15 storage versions
 * (`augmentConversionForDatabaseAccount_Spec` in its documentdb v1api20210515 storage package): 2021-05-15
 * takes `networkAclBypassResourceIds` as ARM ID strings, 2023-11-15 as `networkAclBypassResourceReferences`.
 * Mirrored, including where it loses something, so that an object converted here is the object the
 * operator would store (an empty list stays an empty list, where Go writes none: kubectl-aso keeps `[]`
 * everywhere, and the operator reads both the same):
 * - up, each ID becomes a reference holding that ARM ID (an empty ID an empty reference, as Go's `omitempty`
 *   writes it); without IDs the references are cleared, even ones recalled from the bag. The IDs stay in the
 *   bag, where the generated code stashed them.
 * - down, each reference becomes its ARM ID (`""` for a reference by Kubernetes name), and the references
 *   leave the bag; without references the IDs are cleared, even ones recalled from the bag.
 */
export const databaseAccountSpecHooks: DatabaseAccount_Spec_ConversionHooks = {
  assignTo(source, destination) {
    const ids = source.networkAclBypassResourceIds;
    if (Array.isArray(ids)) destination.networkAclBypassResourceReferences = ids.map(referenceToArmId);
    else delete destination.networkAclBypassResourceReferences;
  },

  assignFrom(source, destination, bag) {
    const references = source.networkAclBypassResourceReferences;
    if (Array.isArray(references)) {
      destination.networkAclBypassResourceIds = references.map((reference) => reference?.armId ?? '');
      bag.remove('NetworkAclBypassResourceReferences');
    } else delete destination.networkAclBypassResourceIds;
  },
};
