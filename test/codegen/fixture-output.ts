import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ConversionRegistry } from '../../src/lib/conversion/registry-types.ts';
import { generate, repoRoot } from './support.ts';

/** The folder the fixture output of this process goes to; gitignored (`.fixture-generated-*`). */
const outputDir = join(repoRoot, `.fixture-generated-${process.pid}`);

/**
 * The generator's output for its own fixture schemas, written beside `generated/` (at the same depth, so its
 * imports of `src/lib` resolve as the shipped output's do) and its conversion registry loaded. It exists so
 * that what only the fixtures have (a 2014-04-01 Sql version whose conversion needs hand-written hooks) runs
 * as generated code, as the shipped kinds' conversions do. Call {@link removeFixtureOutput} after.
 */
export async function fixtureRegistry(): Promise<ConversionRegistry> {
  const { state } = generate();
  for (const [file, content] of state.files) {
    const path = join(outputDir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  const module = (await import(join(outputDir, 'registry.ts'))) as { registry: ConversionRegistry };
  return module.registry;
}

/** Removes what {@link fixtureRegistry} wrote. */
export function removeFixtureOutput(): void {
  rmSync(outputDir, { recursive: true, force: true });
}
