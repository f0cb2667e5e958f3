import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { TypeRename } from '../model/config.ts';
import { armDate } from '../model/versions.ts';

const isPreview = (apiVersion: string): boolean => apiVersion.endsWith('-preview');

/**
 * The operator's own type renames between versions: its generator config (`azure-arm/<group>.yaml` in its Go
 * module; one `azure-arm.yaml` with a section per group under `objectModelConfiguration` up to v2.18.0) says, under `groupModelConfiguration.<apiVersion>.<Type>`, `$nameInNextVersion: <Name>` where ARM
 * renamed an object type from one API version to the next (Redis's `RedisCreateProperties_RedisConfiguration`
 * became `RedisCommonPropertiesRedisConfiguration` at 2024-11-01), and its conversions pair the two types.
 * Read here as the generator's type renames: each at the first API version of `apiVersions` (the group's
 * imported ones) after the one the operator names, which is the version that introduced the new name; one
 * named at a preview that joins an earlier stable version lies at the preview, on its link back.
 * With `only`, just the renames the config names at those API versions of each group (an earlier release's,
 * for the versions read from it). Sorted; a group without a config, or a rename with no later imported
 * version, gives none.
 */
export function operatorTypeRenames(
  goDir: string,
  apiVersions: ReadonlyMap<string, readonly string[]>,
  only?: ReadonlyMap<string, ReadonlySet<string>>,
): TypeRename[] {
  const renames: TypeRename[] = [];
  const configOf = groupConfigsOf(goDir);
  for (const [group, versions] of [...apiVersions.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const byVersion = configOf(group);
    if (typeof byVersion !== 'object' || byVersion === null) continue;
    for (const [apiVersion, types] of Object.entries(byVersion as Record<string, unknown>)) {
      if (typeof types !== 'object' || types === null) continue;
      if (only && !only.get(group)?.has(apiVersion)) continue;
      // A preview joins the stable version before it: the names it gives next are that version's, on
      // the preview's own link back.
      const joinsEarlier =
        isPreview(apiVersion) && versions.some((v) => !isPreview(v) && armDate(v) < armDate(apiVersion));
      const next = joinsEarlier
        ? apiVersion
        : [...versions]
            .filter((v) => armDate(v) > armDate(apiVersion))
            .sort((a, b) => (armDate(a) < armDate(b) ? -1 : armDate(a) > armDate(b) ? 1 : a < b ? -1 : 1))[0];
      if (next === undefined) continue;
      for (const [type, settings] of Object.entries(types as Record<string, unknown>)) {
        const to = (settings as Record<string, unknown> | null)?.$nameInNextVersion;
        if (typeof to === 'string') renames.push({ group, apiVersion: next, from: type, to });
      }
    }
  }
  const key = (r: TypeRename) => `${r.group} ${r.apiVersion} ${r.from}`;
  return renames.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Each group's section of the operator's generator config, by API version: `groupModelConfiguration` of
 * `azure-arm/<group>.yaml`, or, in releases with one config file, `objectModelConfiguration.<group>` of
 * `azure-arm.yaml`. The single file is parsed once.
 */
function groupConfigsOf(goDir: string): (group: string) => unknown {
  const single = join(goDir, 'azure-arm.yaml');
  if (!existsSync(join(goDir, 'azure-arm')) && existsSync(single)) {
    const config = parse(readFileSync(single, 'utf8')) as { objectModelConfiguration?: unknown } | null;
    const groups = config?.objectModelConfiguration;
    return (group) =>
      typeof groups === 'object' && groups !== null ? (groups as Record<string, unknown>)[group] : undefined;
  }
  return (group) => {
    const file = join(goDir, 'azure-arm', `${group}.yaml`);
    if (!existsSync(file)) return undefined;
    return (parse(readFileSync(file, 'utf8')) as { groupModelConfiguration?: unknown } | null)
      ?.groupModelConfiguration;
  };
}
