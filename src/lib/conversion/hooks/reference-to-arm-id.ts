/**
 * A resource reference to an ARM ID, as Go serialises `genruntime.ResourceReference{ARMID: id}` with
 * `omitempty`: an empty ID is an empty reference. The operator's hand-written steps that turn an ARM ID
 * property into a reference (Cosmos DB's bypass IDs, MySQL's source server) all build it so.
 */
export function referenceToArmId(id: string): { armId?: string } {
  return id === '' ? {} : { armId: id };
}
