/** One property that applying would change in Azure, as `az deployment what-if` shows it. */
export interface Change {
  path: string;
  from: unknown;
  to: unknown;
  /** Set when the catalog marks the property unchangeable after creation: ARM will likely refuse the PUT. */
  immutable?: true;
  /**
   * Set on a list Azure holds with the same elements in another order (`from` and `to` are the whole
   * lists): a change only where the order means something to the resource (DNS servers), none where Azure
   * keeps the list as a set. The schemas do not say which, so it is shown once, for the reader to judge.
   */
  orderOnly?: true;
}

/**
 * A matcher for one ARM path the catalog names (`[*]` for any element): true for a change at it or below it.
 */
function armPathMatcher(armPath: string): (changePath: string) => boolean {
  const pattern = new RegExp(
    `^${armPath
      .toLowerCase()
      .split('[*]')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\[[^\\]]+\\]')}(?:$|[.[])`,
  );
  return (changePath) => pattern.test(changePath.toLowerCase());
}

/**
 * Flags the changes at or under one of the ARM paths the catalog marks unchangeable after creation
 * (`DesiredArm.immutableAt`, where the generated layout sends those spec properties).
 */
export function flagImmutable(changes: Change[], immutableArmPaths: readonly string[]): Change[] {
  const matchers = immutableArmPaths.map(armPathMatcher);
  return changes.map((change) =>
    matchers.some((matches) => matches(change.path)) ? { ...change, immutable: true } : change,
  );
}

/**
 * The changes left once those at a property ARM never returns are set aside: where Azure's answer has no
 * value (`from` null) at or under a write-only ARM path (`DesiredArm.writeOnlyAt`, `[*]` for any element),
 * the GET cannot show what Azure holds, so a change there would be reported on every run, applied or not.
 * A value Azure does return there is compared as any other.
 */
export function withoutWriteOnly(changes: Change[], writeOnlyArmPaths: readonly string[]): Change[] {
  if (writeOnlyArmPaths.length === 0) return changes;
  const matchers = writeOnlyArmPaths.map(armPathMatcher);
  return changes.filter(
    (change) => change.from !== null || !matchers.some((matches) => matches(change.path)),
  );
}

function lookup(actual: unknown, key: string): unknown {
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return undefined;
  const record = actual as Record<string, unknown>;
  if (key in record) return record[key];
  const lower = key.toLowerCase();
  const found = Object.keys(record).find((k) => k.toLowerCase() === lower);
  return found === undefined ? undefined : record[found];
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    return (
      a === b ||
      a.toLowerCase() === b.toLowerCase().replace(/\s+/g, '') ||
      a.toLowerCase() === b.toLowerCase()
    );
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The changes applying `desired` would make to `actual`, only over the properties the spec sets (what
 * the spec leaves out of a typed object, ARM keeps), except where the PUT sets a value whole: `tags`, and
 * the maps at `wholeAt` (ARM paths: a container's `metadata`, a free-form JSON object). There an entry the
 * resource has and the body lacks is removed, and every tag goes when the body sets none (the PUT then
 * carries no tags, and ARM's PUT replaces the resource's). A `null` the operator's encoder writes for an
 * unset list or map is no value to compare: ARM reads it as the property unset. Keys match
 * case-insensitively and strings without regard to case (a location `westus` is `West US`'s `westus`), as
 * ARM treats them. A list of the same length compares element by element, by the same rules, so what
 * Azure adds to each element (its `id`, `provisioningState`, defaults) is not a change
 * (`properties.ipRules[0].value`); a list of another length is one change of the whole list. A list of
 * named objects is matched by name; any other list with the same elements in another order is one change,
 * marked `orderOnly` (its order can matter to Azure, DNS servers, or not, IP rules).
 */
export function whatIf(
  desired: Record<string, unknown>,
  actual: Record<string, unknown>,
  wholeAt: ReadonlySet<string> = new Set(),
): Change[] {
  const changes = changesWithin(desired, actual, '', wholeAt);
  // A body without tags (or with the operator's `null` for none) puts an empty tag set: every tag goes.
  if (!Object.entries(desired).some(([key, value]) => key.toLowerCase() === 'tags' && value !== null)) {
    const held = lookup(actual, 'tags');
    if (isRecord(held)) changes.push(...removedEntries('tags', {}, held));
  }
  return changes;
}

function changesWithin(
  desired: Record<string, unknown>,
  actual: Record<string, unknown>,
  prefix: string,
  wholeAt: ReadonlySet<string>,
): Change[] {
  const changes: Change[] = [];
  for (const [key, to] of Object.entries(desired)) {
    if (key === 'name' && prefix === '') continue;
    if (to === null) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const from = lookup(actual, key);
    changes.push(...changesOf(to, from, path, wholeAt));
    if ((path === 'tags' || wholeAt.has(path)) && isRecord(to) && isRecord(from))
      changes.push(...removedEntries(path, to, from));
  }
  return changes;
}

function changesOf(to: unknown, from: unknown, path: string, wholeAt: ReadonlySet<string>): Change[] {
  if (isRecord(to) && isRecord(from)) return changesWithin(to, from, path, wholeAt);
  if (Array.isArray(to) && Array.isArray(from) && to.length === from.length) {
    const byName = heldByName(to, from);
    const held = byName ?? from;
    const changes = to.flatMap((element, i) => changesOf(element, held[i], `${path}[${i}]`, wholeAt));
    if (changes.length > 0 && byName === undefined && isReordering(to, from, path, wholeAt))
      return [{ path, from, to, orderOnly: true }];
    return changes;
  }
  return same(to, from) ? [] : [{ path, from: from ?? null, to }];
}

/**
 * True when each element of `to` is, with no change, a distinct element of `from` (taken in turn, the first
 * that fits): the two lists differ only in order.
 */
function isReordering(
  to: readonly unknown[],
  from: readonly unknown[],
  path: string,
  wholeAt: ReadonlySet<string>,
): boolean {
  const free = from.map((_, i) => i);
  return to.every((element, i) => {
    const at = free.findIndex((j) => changesOf(element, from[j], `${path}[${i}]`, wholeAt).length === 0);
    if (at < 0) return false;
    free.splice(at, 1);
    return true;
  });
}

/**
 * `from`'s elements in the order of `to`'s, matched by `name`, when both lists hold objects with distinct
 * names (any case) and the same ones: ARM identifies such an element (a subnet, a NAT rule, an extension,
 * a pool) by its name, not its place, and Azure may list them in another order than the spec. Undefined for
 * any other list, compared by place.
 */
function heldByName(to: readonly unknown[], from: readonly unknown[]): unknown[] | undefined {
  const namesOf = (list: readonly unknown[]) => {
    const names = list.map((e) =>
      isRecord(e) && typeof e.name === 'string' ? e.name.toLowerCase() : undefined,
    );
    return names.every((n) => n !== undefined) && new Set(names).size === names.length
      ? (names as string[])
      : undefined;
  };
  const wanted = namesOf(to);
  const held = namesOf(from);
  if (!wanted || !held) return undefined;
  const at = wanted.map((name) => held.indexOf(name));
  return at.every((i) => i >= 0) ? at.map((i) => from[i]) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The entries a PUT of `desired` at `path` takes away: ARM replaces a tag set or a map with the one put. */
function removedEntries(
  path: string,
  desired: Record<string, unknown>,
  actual: Record<string, unknown>,
): Change[] {
  const kept = new Set(Object.keys(desired).map((key) => key.toLowerCase()));
  return Object.entries(actual)
    .filter(([key]) => !kept.has(key.toLowerCase()))
    .map(([key, from]) => ({ path: `${path}.${key}`, from, to: null }));
}
