import { UsageError } from './errors.ts';

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a kubectl-style duration (`30s`, `1m30s`, `500ms`, `2h`, or a bare number of seconds) into
 * milliseconds. `flag` names the flag in the error message.
 */
export function parseDuration(text: string, flag: string): number {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== trimmed) {
    throw new UsageError(`--${flag}: "${text}" is not a duration (examples: 30s, 1m30s, 500ms, 2h)`);
  }
  return Math.round(
    parts.reduce((total, part) => total + Number(part[1]) * (units[part[2] ?? 's'] ?? 1000), 0),
  );
}
