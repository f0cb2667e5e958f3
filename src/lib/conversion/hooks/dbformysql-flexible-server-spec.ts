import type { FlexibleServer_Spec_ConversionHooks } from '../../../../generated/dbformysql/v20210501storage/hooks.ts';
import { referenceToArmId } from './reference-to-arm-id.ts';

/**
 * The operator's own step for MySQL flexible servers between the 2021-05-01 and 2023-06-30 storage versions
 * (`augmentConversionForFlexibleServer_Spec`, hand-written in its dbformysql v20210501 storage package):
 * 2021-05-01 names a replica's source server by `sourceServerResourceId`, an ARM ID; 2023-06-30 by
 * `sourceServerResourceReference`. Mirrored as the operator writes it, after the generated assignments:
 * - up, an ID (even `""`) becomes a reference holding it, replacing any reference recalled from the bag,
 *   and leaves the bag where the generated code stashed it; no ID leaves the reference as recalled.
 * - down, a reference becomes its ARM ID (`""` for a reference by Kubernetes name) and leaves the bag; no
 *   reference leaves the ID as recalled.
 */
export const flexibleServerSpecHooks: FlexibleServer_Spec_ConversionHooks = {
  assignTo(source, destination, bag) {
    const id = source.sourceServerResourceId;
    if (typeof id !== 'string') return;
    destination.sourceServerResourceReference = referenceToArmId(id);
    bag.remove('SourceServerResourceId');
  },

  assignFrom(source, destination, bag) {
    const reference = source.sourceServerResourceReference;
    if (reference === undefined || reference === null) return;
    destination.sourceServerResourceId = reference.armId ?? '';
    bag.remove('SourceServerResourceReference');
  },
};
