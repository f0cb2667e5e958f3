// Writes oclif.manifest.json after a build, so that `--help` and command lookup read one file instead of
// importing every command. The manifest is the one oclif itself computes for the root plugin.
import { rmSync, writeFileSync } from 'node:fs';
import { Config, type Interfaces } from '@oclif/core';

const root = new URL('..', import.meta.url).pathname;
rmSync(`${root}oclif.manifest.json`, { force: true });
const config = await Config.load({ root, devPlugins: false, userPlugins: false });
const plugin = config.getPluginsList().find((candidate) => candidate.isRoot);
if (!plugin) throw new Error('write-manifest: the root plugin was not found');
// The loaded root plugin computes its manifest; the public type does not declare it.
const manifest = (plugin as unknown as { manifest: Interfaces.Manifest }).manifest;
const commands = Object.fromEntries(Object.entries(manifest.commands).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(`${root}oclif.manifest.json`, `${JSON.stringify({ ...manifest, commands }, null, 2)}\n`);
process.stdout.write(`oclif.manifest.json: ${Object.keys(commands).length} commands\n`);
