/**
 * Every place where `ours` and `theirs` differ, as `path: ours <json> operator <json>` lines, so a failing
 * comparison says exactly what disagrees rather than dumping two whole objects.
 */
export function differences(ours: unknown, theirs: unknown, path = ''): string[] {
  if (isRecord(ours) && isRecord(theirs)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
    return keys.flatMap((key) => differences(ours[key], theirs[key], path ? `${path}.${key}` : key));
  }
  if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length) {
    return ours.flatMap((item, index) => differences(item, theirs[index], `${path}[${index}]`));
  }
  if (JSON.stringify(ours) === JSON.stringify(theirs)) return [];
  return [`${path}: ours ${JSON.stringify(ours)} operator ${JSON.stringify(theirs)}`];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
