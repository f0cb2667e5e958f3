/**
 * Earlier operator releases, newest first, whose removed versions the core keeps: v2.18.0 served AKS
 * `v1api20240402preview`, which v2.20.0 removed, and objects and manifests written at it must still convert.
 * The schema import reads such a version from the newest of these that served it, with that release's CRDs
 * and Go types; `npm run schemas:arm-paths` reads its ARM Go types from there too.
 */
export const earlierReleaseVersions: readonly string[] = ['v2.18.0'];
