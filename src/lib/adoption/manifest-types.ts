import { catalog } from '../../../generated/catalog.ts';
import { ManifestError } from '../manifests/errors.ts';
import type { ManifestObject, ManifestSet } from '../manifests/read.ts';

function isCatalogued(object: ManifestObject): boolean {
  const [group, version] = object.apiVersion.split('/');
  return catalog.some(
    (entry) =>
      entry.group === group &&
      entry.kind === object.kind &&
      entry.versions.some((known) => known.version === version),
  );
}

/**
 * Checks every value of each object whose kind and version the conversion core knows against the generated
 * types of that version, as `migrate -f` does when it converts them: `tags: [a]` or `version: [13]` is bad
 * input (exit 9, naming the file, document, object and property) before adopt-check reads the cluster or
 * Azure. The types depend on the kind (a few CRD versions have a list of tags), so the shared reader checks
 * only the fields every kind has, and this checks the rest. The conversion code is imported only when a
 * catalogued object is there. Never quotes a value (WrongType gives its JSON type).
 */
export async function checkCataloguedTypes(set: ManifestSet): Promise<void> {
  const catalogued = set.objects.filter(isCatalogued);
  if (catalogued.length === 0) return;
  const { convertKeepingLeftovers, hubOf } = await import('../conversion/convert.ts');
  const { WrongType } = await import('../conversion/errors.ts');
  for (const object of catalogued) {
    const group = object.apiVersion.split('/')[0] ?? '';
    const { source, ...manifest } = object;
    try {
      convertKeepingLeftovers(manifest, hubOf(group, object.kind));
    } catch (error) {
      // Anything else is the run's to judge, as before; only a value of the wrong type is refused here.
      if (!(error instanceof WrongType)) continue;
      const [file = source, document = '1'] = source.split('#');
      const name = object.metadata.name ?? '?';
      throw new ManifestError(file, `document ${document}, ${object.kind}/${name}: ${error.message}`);
    }
  }
}
