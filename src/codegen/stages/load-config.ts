import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ConfigError, type GeneratorConfig, validateConfig } from '../model/config.ts';
import { stage } from '../stage.ts';

/** The hand-written config every run reads, relative to the schemas directory. */
export const configFile = 'generator-config.yaml';

/**
 * The settings `npm run schemas:import` derives from the operator's CRDs (kind and plural names,
 * transformations, exports, operator settings), relative to the schemas directory. Written by the import,
 * never by hand, so the hand-written file keeps only what the CRDs do not say.
 */
export const derivedConfigFile = 'operator-derived.yaml';

/** The sections the derived file may hold: what the CRDs say, and the type renames of the operator's config. */
const derivedSections = [
  'published',
  'scopes',
  'kinds',
  'plurals',
  'statusOmits',
  'operatorExports',
  'operatorSpecProperties',
  'transformations',
  'renames',
  'removedVersions',
] as const;

type Raw = Record<string, unknown>;

const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The hand-written config with the derived one merged in: lists joined, names added. A name both files set
 * is refused, so a hand-written entry never silently overrides (or repeats) what the CRDs say.
 */
export function mergedConfig(hand: unknown, derived: unknown): unknown {
  if (derived === undefined || derived === null) return hand;
  if (!isRaw(hand) || !isRaw(derived)) throw new ConfigError(`${derivedConfigFile}: expected a mapping`);
  const out: Raw = { ...hand };
  for (const [section, value] of Object.entries(derived)) {
    if (!(derivedSections as readonly string[]).includes(section))
      throw new ConfigError(`${derivedConfigFile}: "${section}" is not a derived section`);
    out[section] = mergeSection(section, hand[section], value);
  }
  return out;
}

function mergeSection(at: string, hand: unknown, derived: unknown): unknown {
  if (hand === undefined || hand === null) return derived;
  if (Array.isArray(hand) && Array.isArray(derived)) return [...hand, ...derived];
  if (isRaw(hand) && isRaw(derived)) {
    const out: Raw = { ...hand };
    for (const [key, value] of Object.entries(derived)) {
      if (Array.isArray(value) || isRaw(value)) out[key] = mergeSection(`${at}.${key}`, hand[key], value);
      else if (key in hand)
        throw new ConfigError(`${at}.${key}: set in both ${configFile} and ${derivedConfigFile}`);
      else out[key] = value;
    }
    return out;
  }
  throw new ConfigError(`${at}: ${configFile} and ${derivedConfigFile} give it different shapes`);
}

/** The config of a schemas folder: the hand-written file and, when the import has written it, the derived one. */
export function readConfig(schemasDir: string): GeneratorConfig {
  const hand: unknown = parse(readFileSync(join(schemasDir, configFile), 'utf8'));
  const derivedPath = join(schemasDir, derivedConfigFile);
  const derived: unknown = existsSync(derivedPath) ? parse(readFileSync(derivedPath, 'utf8')) : undefined;
  return validateConfig(mergedConfig(hand, derived));
}

/** Reads and validates the generator config (prefixes, compatibility, renames, removals, hooks). */
export const loadConfig = stage({
  id: 'loadConfig',
  description: 'Load the generator config',
  needs: [],
  run: (state) => {
    state.config = readConfig(join(state.root, state.schemasDir));
  },
});
