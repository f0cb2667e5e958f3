import { versionsOf } from '../conversion/convert.ts';
import { ConversionError } from '../conversion/errors.ts';
import type { Crd } from './crds.ts';
import { type GeneratedCrds, generatedCrds } from './generated-schemas.ts';
import { schemaDifference } from './schema-compare.ts';

/**
 * Why a CRD's objects may not be converted client-side, or undefined when they may. The generated
 * conversions are proven for the generated shapes only: every version involved (each stored version and
 * the target) must be in the catalog, served (objects are read at the version they are stored in), and
 * have in the cluster exactly the generated schema, descriptions aside. A kind the catalog lacks, or an
 * operator release that ships other shapes, must go through its own webhook.
 */
export function clientSideRefusal(
  crd: Crd,
  target: string,
  generated: GeneratedCrds = generatedCrds(),
): string | undefined {
  if (!generated.found) return generated.reason;
  const { group } = crd.spec;
  const { kind } = crd.spec.names;
  const found = generated.lookup(group, crd.spec.names.plural);
  const ours = found?.kind === kind ? found : undefined;
  let known: string[];
  try {
    known = versionsOf(group, kind);
  } catch (error) {
    if (!(error instanceof ConversionError)) throw error;
    known = [];
  }
  if (!ours || known.length === 0)
    return `the catalog has no ${kind}.${group}, so there is no generated conversion for it`;
  const versions = [...new Set([...(crd.status?.storedVersions ?? []), target])];
  for (const version of versions) {
    const entry = crd.spec.versions.find((candidate) => candidate.name === version);
    if (!entry) return `the CRD has no version ${version}`;
    if (!entry.served) return `${version} is not served, so its objects cannot be read as they are stored`;
    const schema = ours.schemas.get(version);
    if (!known.includes(version) || !schema)
      return `the catalog has no version ${version} of ${kind}.${group}`;
    const difference = schemaDifference(entry.schema?.openAPIV3Schema, schema);
    if (difference) return `the cluster's schema of ${version} is not the generated one (${difference})`;
  }
  return undefined;
}
