import type { Stage } from './stage.ts';
import { addArmReferences } from './stages/add-arm-references.ts';
import { addCompatibilityVersions } from './stages/add-compatibility-versions.ts';
import { addConfigMapReferences } from './stages/add-config-map-references.ts';
import { addIdentityReferences } from './stages/add-identity-references.ts';
import { addOperatorSpec } from './stages/add-operator-spec.ts';
import { addSecretReferences } from './stages/add-secret-references.ts';
import { addStorageVariants } from './stages/add-storage-variants.ts';
import { buildApiPackages } from './stages/build-api-packages.ts';
import { buildConversionGraph } from './stages/build-conversion-graph.ts';
import { checkPlans } from './stages/check-plans.ts';
import { emitArmPayloads } from './stages/emit-arm-payloads.ts';
import { emitConversionPlans } from './stages/emit-conversion-plans.ts';
import { emitCrds } from './stages/emit-crds.ts';
import { emitRegistry } from './stages/emit-registry.ts';
import { emitReleaseCatalog } from './stages/emit-release-catalog.ts';
import { emitResourceCatalog } from './stages/emit-resource-catalog.ts';
import { emitTests } from './stages/emit-tests.ts';
import { emitTypes } from './stages/emit-types.ts';
import { loadConfig } from './stages/load-config.ts';
import { loadKubernetesKinds } from './stages/load-kubernetes-kinds.ts';
import { loadSchemas } from './stages/load-schemas.ts';
import { planConversions } from './stages/plan-conversions.ts';
import { writeOutput } from './stages/write-output.ts';

/**
 * The stages of `npm run generate`, in order. Order matters where noted: compatibility clones must exist
 * before storage variants are added (so that they get storage variants too), and every package must exist
 * before the conversion graph is built.
 */
export const modelStages: readonly Stage[] = [
  loadConfig,
  loadSchemas,
  loadKubernetesKinds,
  buildApiPackages,
  // The operator's type transformations (issue 8, item 3), before the clones so that they carry them too.
  addArmReferences,
  addSecretReferences,
  addConfigMapReferences,
  addIdentityReferences,
  addOperatorSpec, // before the clones, so that they carry it too
  addCompatibilityVersions, // before addStorageVariants
  addStorageVariants,
  buildConversionGraph,
  planConversions,
  checkPlans,
];

/** Stages turning the model into files (kept in memory until {@link writeOutput}). */
export const emitStages: readonly Stage[] = [
  emitTypes,
  emitConversionPlans,
  emitRegistry,
  emitTests,
  emitArmPayloads,
  emitResourceCatalog,
  emitCrds,
  emitReleaseCatalog,
];

/** The whole run of `npm run generate`: model, emit, then write (last, so a failure writes nothing). */
export const pipeline: readonly Stage[] = [...modelStages, ...emitStages, writeOutput];
