import { stringify } from 'yaml';
import type { HealthRules } from './run.ts';

/** The output formats of `health-rules`: both are meant for files a tool reads, so there is no table. */
export const healthRulesFormats = ['yaml', 'json'] as const;

/** One of {@link healthRulesFormats}. */
export type HealthRulesFormat = (typeof healthRulesFormats)[number];

/**
 * The rules as text. YAML keeps every line of a script whole (no folding), so that the Lua reads as
 * written and a CEL expression stays one line.
 */
export function renderHealthRules(rules: HealthRules, format: HealthRulesFormat): string {
  if (format === 'json') return `${JSON.stringify(rules, null, 2)}\n`;
  return stringify(rules, { lineWidth: 0 });
}
