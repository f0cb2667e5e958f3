import { tsHeader } from './code.ts';

/**
 * `generated/arm-modules.ts`: a loader per generated ARM module, keyed `group/version` (short group). The
 * imports are written out literally so that a bundler (the single executable's esbuild step) carries every
 * module, where a computed specifier would leave them behind; they stay lazy, so loading the index costs
 * nothing until a layout is asked for.
 */
export function emitArmModules(packages: ReadonlyArray<{ group: string; version: string }>): string {
  const out: string[] = [tsHeader()];
  out.push('/** Loaders of the generated ARM payload modules, by short group and API version. */\n');
  out.push('export const armModules: Readonly<Record<string, () => Promise<Record<string, unknown>>>> = {\n');
  const keys = [...new Set(packages.map((p) => `${p.group}/${p.version}`))].sort();
  for (const key of keys) out.push(`  '${key}': () => import('./${key}/arm.ts'),\n`);
  out.push('};\n');
  return out.join('');
}
