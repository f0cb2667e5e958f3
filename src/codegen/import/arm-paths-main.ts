import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { validateConfig } from '../model/config.ts';
import { groupOfType } from '../model/names.ts';
import { configFile } from '../stages/load-config.ts';
import { annotateArmPaths, armGoPackageOf } from './arm-paths.ts';
import { stableJson } from './arm-schema.ts';
import { earlierReleaseVersions } from './earlier-releases.ts';
import { defaultOperatorGoDir, OperatorGoSourceMissing } from './operator-go.ts';

/*
 * `npm run schemas:arm-paths [GO_MODULE_FOLDER]`: writes `x-arm-path` into every schema file (imported or
 * hand-written) from the operator's ARM Go types of its API version (arm-paths.ts). `schemas:import` does
 * the same for the files it writes; this pass also reaches the hand-written ones.
 */
const root = resolve(new URL('../../..', import.meta.url).pathname);
const schemasDir = join(root, 'schemas');
const operatorGoDir = resolve(process.argv[2] ?? defaultOperatorGoDir('v2.20.0'));
const config = validateConfig(parse(readFileSync(join(schemasDir, configFile), 'utf8')));

function schemaFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return schemaFiles(path);
      return entry.endsWith('.json') ? [path] : [];
    });
}

try {
  let files = 0;
  let paths = 0;
  for (const path of schemaFiles(schemasDir)) {
    const file = relative(schemasDir, path);
    const [provider, apiVersion, name] = file.split('/');
    if (provider === undefined || apiVersion === undefined || name === undefined || !provider.includes('.'))
      continue;
    const armType = `${provider}/${name.replace(/\.json$/, '').replaceAll('.', '/')}`;
    const group = groupOfType(config.groups, armType);
    // A version the current release removed has its ARM Go types in the earlier release that served it.
    const pkg = [operatorGoDir, ...earlierReleaseVersions.map((v) => defaultOperatorGoDir(v))]
      .map((dir) => armGoPackageOf(dir, group, apiVersion, armType))
      .find((found) => found !== undefined);
    if (!pkg) continue;
    const document = JSON.parse(readFileSync(path, 'utf8'));
    const written = annotateArmPaths(document, pkg, armType);
    writeFileSync(path, stableJson(document));
    files++;
    paths += written;
  }
  process.stdout.write(`schemas:arm-paths: ${paths} ARM paths in ${files} schema files\n`);
} catch (error) {
  if (error instanceof OperatorGoSourceMissing) {
    process.stderr.write(`schemas:arm-paths: ${error.message}\n`);
    process.exitCode = 1;
  } else throw error;
}
