// Runs after `tsc`: writes what lets a call skip work it would otherwise repeat every time.
// - oclif.manifest.json: oclif's own description of the commands, so lookup and help import no command.
// - dist/help/*.txt: every help page as oclif's Help renders it at 80 columns, so that `kubectl aso --help`
//   (paid on every look) prints without loading oclif at all; bin/kubectl-aso falls back to oclif otherwise.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { Config, type Interfaces } from '@oclif/core';
import { helpPageWidth } from '../src/lib/cli/static-help.ts';
import AsoHelp from '../src/lib/render/help.ts';

const root = new URL('..', import.meta.url).pathname;
rmSync(`${root}oclif.manifest.json`, { force: true });
const config = await Config.load({ root, devPlugins: false, userPlugins: false });
const plugin = config.getPluginsList().find((candidate) => candidate.isRoot);
if (!plugin) throw new Error('write-cli-cache: the root plugin was not found');
// The loaded root plugin computes its manifest; the public type does not declare it.
const manifest = (plugin as unknown as { manifest: Interfaces.Manifest }).manifest;
const commands = Object.fromEntries(Object.entries(manifest.commands).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(`${root}oclif.manifest.json`, `${JSON.stringify({ ...manifest, commands }, null, 2)}\n`);

class CapturedHelp extends AsoHelp {
  text = '';
  protected override log(...args: string[]): void {
    this.text += `${args.join(' ')}\n`;
  }
}

async function page(argv: string[]): Promise<string> {
  const help = new CapturedHelp(config, { maxWidth: helpPageWidth, stripAnsi: true });
  await help.showHelp(argv);
  return help.text;
}

const helpDir = `${root}dist/help`;
rmSync(helpDir, { recursive: true, force: true });
mkdirSync(helpDir, { recursive: true });
writeFileSync(`${helpDir}/index.txt`, await page([]));
for (const id of Object.keys(commands)) writeFileSync(`${helpDir}/${id}.txt`, await page([id]));
process.stdout.write(`oclif.manifest.json and dist/help: ${Object.keys(commands).length} commands\n`);
