import type { AKS_Properties_ConversionHooks } from '../../../../generated/machinelearningservices/v1api20210701storage/hooks.ts';
import { referenceToArmId } from './reference-to-arm-id.ts';

/**
 * The operator's own step for a Machine Learning AKS compute's properties between the 2021-07-01 and
 * 2024-04-01 storage versions (`AssignPropertiesFrom`/`AssignPropertiesTo` in its machinelearningservices
 * v1api20210701 storage package, hand-written): 2021-07-01 takes the load balancer subnet as an ARM ID
 * string, 2024-04-01 as a reference. Mirrored as the operator writes it:
 * - up, an ID becomes a reference holding that ARM ID; the ID also stays in the bag, where the generated
 *   code stashed it, and nothing is cleared when there is no ID.
 * - down, a reference with an ARM ID, or one that is not a Kubernetes reference (no name, group and kind),
 *   becomes that ARM ID (`""` when it has none) and leaves the bag; a Kubernetes reference stays in the bag.
 */
export const aksPropertiesHooks: AKS_Properties_ConversionHooks = {
  assignTo(source, destination) {
    const id = source.loadBalancerSubnet;
    if (typeof id === 'string') destination.loadBalancerSubnetReference = referenceToArmId(id);
  },

  assignFrom(source, destination, bag) {
    const reference = source.loadBalancerSubnetReference;
    if (reference === undefined || reference === null) return;
    const armId = reference.armId ?? '';
    const kubernetes =
      armId === '' &&
      (reference.name ?? '') !== '' &&
      (reference.group ?? '') !== '' &&
      (reference.kind ?? '') !== '';
    if (armId !== '' || !kubernetes) {
      destination.loadBalancerSubnet = armId;
      bag.remove('LoadBalancerSubnetReference');
    }
  },
};
