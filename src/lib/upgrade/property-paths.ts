/**
 * Where a catalog property path (`spec.rules[].port`, `spec.tags{}`) is set in an object: each concrete
 * location, as JSON path segments (`['spec', 'rules', 2, 'port']`), so that a finding can name the line
 * of every use. A path through a list or map visits each element; a value of another shape than the path
 * expects (a string where a list is expected) is passed over, as the path then does not apply.
 */
export function locationsOf(object: unknown, path: string): (string | number)[][] {
  let current: { value: unknown; at: (string | number)[] }[] = [{ value: object, at: [] }];
  for (const segment of segmentsOf(path)) {
    const next: typeof current = [];
    for (const { value, at } of current) {
      if (segment === '[]') {
        if (Array.isArray(value))
          for (const [i, element] of value.entries()) next.push({ value: element, at: [...at, i] });
      } else if (isRecord(value)) {
        if (segment === '{}') {
          for (const key of Object.keys(value)) next.push({ value: value[key], at: [...at, key] });
        } else if (Object.hasOwn(value, segment) && value[segment] !== undefined && value[segment] !== null) {
          next.push({ value: value[segment], at: [...at, segment] });
        }
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return current.map(({ at }) => at);
}

/** `spec.rules[].port` -> `spec`, `rules`, `[]`, `port`. */
function segmentsOf(path: string): string[] {
  return path.split('.').flatMap((part) => {
    const out: string[] = [];
    const match = /^(.*?)((?:\[\]|\{\})*)$/.exec(part) as RegExpExecArray;
    if (match[1] !== '') out.push(match[1] as string);
    for (const marker of (match[2] as string).match(/\[\]|\{\}/g) ?? []) out.push(marker);
    return out;
  });
}

/** A JSON path as people read it: `spec.rules[2].port`, `spec.tags["a b"]`. */
export function pathText(at: readonly (string | number)[]): string {
  return at
    .map((segment, i) =>
      typeof segment === 'number'
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$-]*$/.test(segment)
          ? `${i === 0 ? '' : '.'}${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
