import { convert } from '../conversion/convert.ts';
import { ConversionError } from '../conversion/errors.ts';
import type { KubeClient } from '../kube/client.ts';
import { ApiError, Conflict } from '../kube/errors.ts';
import type { KubeObject } from '../kube/list.ts';
import { type ResourceType, resourceName, resourcePath } from '../kube/paths.ts';
import { type Backoff, withBackoff } from './backoff.ts';
import { isConversionFailure } from './plan.ts';
import type { PreparedWrite, WritePreparer } from './rewrite-object.ts';
import { sameJson } from './schema-compare.ts';

/** Where a client-side rewrite reads and writes one CRD's objects. */
export interface ClientSide {
  group: string;
  kind: string;
  plural: string;
  /** The storage version: objects are written at it. */
  target: string;
  /** The versions an object may be stored at: `status.storedVersions` (the target among them). */
  candidates: string[];
}

/** An object as client-side conversion sees it: where it may be stored, what it is there, what it becomes. */
export interface ResolvedObject {
  /** The candidate versions its stored value fits (and from which it converts to the same object). */
  storedAt: string[];
  /** The stored value, labelled with the first version it fits: what `--backup-dir` keeps. */
  original: KubeObject;
  /** The object at the target version, with the metadata it was read with. */
  converted: KubeObject;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Everything of an object but its apiVersion and metadata: what pruning and conversion act on. */
function payload(object: KubeObject): Record<string, unknown> {
  const {
    apiVersion: _apiVersion,
    metadata: _metadata,
    ...rest
  } = object as KubeObject & Record<string, unknown>;
  return rest;
}

/** Whether `small` is `big` with some object properties left out (pruning only ever removes properties). */
function contains(big: unknown, small: unknown): boolean {
  if (Array.isArray(big) || Array.isArray(small)) {
    return (
      Array.isArray(big) &&
      Array.isArray(small) &&
      big.length === small.length &&
      big.every((item, index) => contains(item, small[index]))
    );
  }
  if (isRecord(big) && isRecord(small)) {
    return Object.keys(small).every((key) => key in big && contains(big[key], small[key]));
  }
  return big === small;
}

/** The first path where two JSON values differ, for messages; undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (isRecord(a) && isRecord(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const found = firstDifference(a[key], b[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
    return undefined;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (const [index, item] of a.entries()) {
      const found = firstDifference(item, b[index], `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  return sameJson(a, b) ? undefined : path || '(the whole object)';
}

/**
 * Works out where an object is stored from its reads at each candidate version, under conversion `None`
 * (the API server relabels what it reads and prunes it to the schema of the version asked for, so a read
 * at the stored version is the stored value itself and every other read is that value pruned). The stored
 * value is the read that contains all the others; it fits every candidate whose read equals it. Where it
 * fits several, it is accepted only if converting it from each of them gives the same object: otherwise
 * nobody can tell what it means, and it is refused (reported failed, never written).
 */
export function resolveStored(
  side: ClientSide,
  reads: Map<string, KubeObject>,
  metadata: KubeObject['metadata'],
): ResolvedObject | { failed: string } {
  const entries = [...reads.entries()];
  const stored = entries.find(([, read]) =>
    entries.every(([, other]) => contains(payload(read), payload(other))),
  );
  if (!stored) {
    return {
      failed: `its reads at ${entries.map(([version]) => version).join(', ')} disagree in a way pruning cannot explain; not written`,
    };
  }
  const value = payload(stored[1]);
  const fits = side.candidates.filter((version) => {
    const read = reads.get(version);
    return read !== undefined && sameJson(payload(read), value);
  });
  const conversions: Array<{ version: string; object: KubeObject }> = [];
  for (const version of fits) {
    const labelled = { ...value, apiVersion: `${side.group}/${version}`, metadata } as KubeObject;
    try {
      conversions.push({
        version,
        object:
          version === side.target
            ? labelled
            : ({ ...convert(labelled, side.target), metadata } as KubeObject),
      });
    } catch (error) {
      if (!(error instanceof ConversionError)) throw error;
      return { failed: `converting it from ${version}: ${error.message}; not written` };
    }
  }
  const [first, ...others] = conversions;
  if (!first) return { failed: 'it fits none of the stored versions; not written' };
  for (const other of others) {
    const where = firstDifference(payload(first.object), payload(other.object));
    if (where) {
      return {
        failed: `it may be stored at ${first.version} or ${other.version} (it fits both) and they convert differently (at ${where}); not written`,
      };
    }
  }
  return {
    storedAt: fits,
    original: { ...value, apiVersion: `${side.group}/${first.version}`, metadata } as KubeObject,
    converted: {
      ...payload(first.object),
      apiVersion: `${side.group}/${side.target}`,
      kind: side.kind,
      metadata,
    } as KubeObject,
  };
}

/**
 * Reads one object at every candidate version besides the one it was read at (`current`). All reads must
 * be of the same resourceVersion: an object changed in between is a conflict, and the caller reads it
 * again. With `skipUnconvertible` (a dry run, which cannot switch the conversion off), a read the API
 * server cannot convert is left out: with the webhook down or refusing, only the stored version reads.
 */
export async function readAtCandidates(
  client: KubeClient,
  side: ClientSide,
  current: KubeObject,
  backoff: Backoff,
  skipUnconvertible = false,
): Promise<Map<string, KubeObject>> {
  const at = current.apiVersion?.split('/')[1] ?? side.target;
  // A dry run reads every version by name (from etcd, through whatever conversion the CRD has): the list
  // it started from may have been answered from the watch cache, converted long ago.
  const reads = new Map<string, KubeObject>(skipUnconvertible ? [] : [[at, current]]);
  let resourceVersion = skipUnconvertible ? undefined : current.metadata.resourceVersion;
  const namespace = current.metadata.namespace;
  const name = current.metadata.name;
  for (const version of side.candidates) {
    if (version === at && !skipUnconvertible) continue;
    const type: ResourceType = { group: side.group, version, plural: side.plural };
    try {
      const read = await withBackoff(
        () =>
          client.request<KubeObject>({
            path: resourcePath(type, namespace, name),
            subject: { verb: 'get', resource: `${resourceName(type)}/${name}`, namespace },
          }),
        backoff,
      );
      resourceVersion ??= read.metadata.resourceVersion;
      if (read.metadata.resourceVersion !== resourceVersion) {
        throw new Conflict(`${resourceName(type)}/${name}`, 'the object changed while it was being read');
      }
      reads.set(version, read);
    } catch (error) {
      if (skipUnconvertible && isConversionFailure(error)) continue;
      throw error;
    }
  }
  return reads;
}

/**
 * The write preparation of the client-side path (see `rewriteObject`): reads the object at each candidate
 * version, converts it with the generated conversions, and asks the API server what it would store
 * (`dryRun=All`): a write whose answer differs from the conversion (a value pruned, a status kept from the
 * stored object because the status subresource is still in effect) is refused before anything is stored.
 */
export function clientSidePreparer(client: KubeClient, side: ClientSide, backoff: Backoff): WritePreparer {
  return async (current): Promise<PreparedWrite | { failed: string }> => {
    const reads = await readAtCandidates(client, side, current, backoff);
    const resolved = resolveStored(side, reads, current.metadata);
    if ('failed' in resolved) return resolved;
    const type: ResourceType = { group: side.group, version: side.target, plural: side.plural };
    const namespace = current.metadata.namespace;
    const name = current.metadata.name;
    const answer = await withBackoff(
      () =>
        client.request<KubeObject>({
          method: 'PUT',
          path: resourcePath(type, namespace, name),
          query: { dryRun: 'All' },
          body: resolved.converted,
          subject: { verb: 'update', resource: `${resourceName(type)}/${name}`, namespace },
        }),
      backoff,
    );
    const where = firstDifference(payload(resolved.converted), payload(answer));
    if (where) {
      return {
        failed: `the API server would store something else than the conversion (at ${where}); not written`,
      };
    }
    return { body: resolved.converted, original: resolved.original };
  };
}

/** One `$propertyBag` of a converted object: where it is and what it holds. */
export interface BagEntry {
  path: string;
  entries: Record<string, string>;
}

/** Every non-empty `$propertyBag` in an object, with its path (`spec`, `spec.network`, `status.items[0]`). */
export function propertyBags(value: unknown, path = ''): BagEntry[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => propertyBags(item, `${path}[${index}]`));
  if (!isRecord(value)) return [];
  const found: BagEntry[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === '$propertyBag' && isRecord(child) && Object.keys(child).length > 0) {
      found.push({ path: path || '(root)', entries: child as Record<string, string> });
    } else if (key !== '$propertyBag') {
      found.push(...propertyBags(child, path ? `${path}.${key}` : key));
    }
  }
  return found;
}

/** What `--dry-run` shows for one object of a client-side CRD. */
export type ObjectPreview =
  | { namespace: string; name: string; storedAt: string[]; propertyBag: BagEntry[] }
  | { namespace: string; name: string; failed: string };

/** The preview of one object read at `current` (see {@link readAtCandidates} for what a dry run can read). */
export async function previewObject(
  client: KubeClient,
  side: ClientSide,
  current: KubeObject,
  backoff: Backoff,
): Promise<ObjectPreview> {
  const namespace = current.metadata.namespace ?? '';
  const name = current.metadata.name;
  let reads: Map<string, KubeObject>;
  try {
    reads = await readAtCandidates(client, side, current, backoff, true);
  } catch (error) {
    if (error instanceof ApiError || error instanceof Conflict)
      return { namespace, name, failed: error.message };
    throw error;
  }
  if (reads.size === 0) {
    return { namespace, name, failed: 'the API server can convert it to none of its stored versions' };
  }
  const resolved = resolveStored(side, reads, current.metadata);
  if ('failed' in resolved) return { namespace, name, failed: resolved.failed };
  return {
    namespace,
    name,
    storedAt: resolved.storedAt,
    propertyBag: propertyBags(payload(resolved.converted)),
  };
}
