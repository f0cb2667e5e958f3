import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateConfig } from '../model/config.ts';
import { stage } from '../stage.ts';

/** The config file every run reads, relative to the schemas directory. */
export const configFile = 'generator-config.yaml';

/** Reads and validates the generator config (prefixes, compatibility, renames, removals, hooks). */
export const loadConfig = stage({
  id: 'loadConfig',
  description: 'Load the generator config',
  needs: [],
  run: (state) => {
    state.config = validateConfig(
      parse(readFileSync(join(state.root, state.schemasDir, configFile), 'utf8')),
    );
  },
});
