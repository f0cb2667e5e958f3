import { hostname } from 'node:os';
import { parseJson } from '../json/parse-json.ts';
import type { KubeClient } from '../kube/client.ts';
import { Conflict, Forbidden } from '../kube/errors.ts';
import { metadataOnly } from '../kube/list.ts';
import { resourcePath } from '../kube/paths.ts';
import { type Backoff, defaultBackoff, withBackoff } from './backoff.ts';
import { crdType } from './crds.ts';

/**
 * The annotation a client-side rewrite puts on a CRD while it has switched the CRD's conversion off: what
 * to put back. It is written in the same update that switches, so the cluster itself always says whether a
 * CRD was left switched (by a run killed mid-way) and how to restore it.
 */
export const switchAnnotation = 'kubectl-aso.io/migrate-original-conversion';

/**
 * A label beside the annotation, so that a run finds every CRD left switched with one list, whatever
 * `--kind` selects.
 */
export const switchLabel = 'kubectl-aso.io/migrate-switched';

/**
 * Which process switched the CRD (`{"host":...,"pid":...}`), written with the switch: a later run on the
 * same host leaves a CRD alone while the process that switched it is still alive (a migration of another
 * kind may run beside it), and restores it once that process is gone.
 */
export const switchHolderAnnotation = 'kubectl-aso.io/migrate-switched-by';

/** The process that switched a CRD, as {@link switchHolderAnnotation} records it. */
export interface SwitchHolder {
  host: string;
  pid: number;
}

/** This process, as it records itself on a CRD it switches. */
export function thisHolder(): SwitchHolder {
  return { host: hostname(), pid: process.pid };
}

/**
 * Why a switched CRD must be left as it is now, or undefined when it may be restored: the process that
 * switched it is alive on this host, or ran on another host (where nothing here can tell whether it is
 * still going; `migrate --restore` restores it). A CRD with no holder recorded (switched by an earlier
 * version of this plugin) or a holder no longer running here may be restored.
 */
export function heldBy(annotations: Record<string, string> | undefined): string | undefined {
  const text = annotations?.[switchHolderAnnotation];
  if (text === undefined) return undefined;
  let holder: Partial<SwitchHolder>;
  try {
    holder = parseJson(text) as Partial<SwitchHolder>;
  } catch {
    return undefined;
  }
  if (typeof holder.pid !== 'number' || typeof holder.host !== 'string') return undefined;
  if (holder.host !== hostname())
    return `switched by a migrate run on host ${holder.host} (pid ${holder.pid})`;
  if (holder.pid === process.pid) return 'switched by this run';
  try {
    process.kill(holder.pid, 0);
    return `switched by a migrate run that is still going (pid ${holder.pid})`;
  } catch (error) {
    // EPERM: the process exists but belongs to another user: still going.
    if ((error as NodeJS.ErrnoException).code === 'EPERM') {
      return `switched by a migrate run that is still going (pid ${holder.pid})`;
    }
    return undefined;
  }
}

/**
 * What a CRD had before the switch: its `spec.conversion` (undefined when it set none) and the
 * `subresources` of each version (the status subresource is switched off too: an update of the main
 * resource would otherwise keep the stored status, which under `None` is the old version's, relabelled).
 */
export interface RecordedConversion {
  conversion: unknown;
  subresources: Record<string, unknown>;
}

/** A CRD as the REST API returns it, kept whole so that an update writes back everything it does not change. */
interface RawCrd {
  metadata: {
    name: string;
    generation?: number;
    resourceVersion?: string;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
  };
  spec: { conversion?: unknown; versions: Array<{ name: string; subresources?: Record<string, unknown> }> };
  [key: string]: unknown;
}

/** Generations around one of this plugin's own CRD updates: the run expects the first and moves to the second. */
export interface GenerationChange {
  before: number;
  after: number;
}

function readRaw(client: KubeClient, name: string, backoff: Backoff): Promise<RawCrd> {
  return withBackoff(
    () =>
      client.request<RawCrd>({
        path: resourcePath(crdType, undefined, name),
        subject: { verb: 'get', resource: `customresourcedefinitions/${name}` },
      }),
    backoff,
  );
}

/** Updates the CRD with the resourceVersion it was read at; a concurrent change shows as a 409. */
function writeRaw(client: KubeClient, crd: RawCrd, backoff: Backoff): Promise<RawCrd> {
  return withBackoff(
    () =>
      client.request<RawCrd>({
        method: 'PUT',
        path: resourcePath(crdType, undefined, crd.metadata.name),
        body: { ...crd, apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' },
        subject: { verb: 'update', resource: `customresourcedefinitions/${crd.metadata.name}` },
      }),
    backoff,
  );
}

/** What the switch would record for a CRD as it is now. */
export function recordOf(crd: RawCrd): RecordedConversion {
  return {
    conversion: crd.spec.conversion,
    subresources: Object.fromEntries(
      crd.spec.versions.map((version) => [version.name, version.subresources]),
    ),
  };
}

/** The recorded conversion a CRD carries in its annotation, if a run left it switched. */
export function recordedOn(crd: {
  metadata: { annotations?: Record<string, string> };
}): RecordedConversion | undefined {
  const text = crd.metadata.annotations?.[switchAnnotation];
  if (text === undefined) return undefined;
  try {
    return parseJson(text) as RecordedConversion;
  } catch {
    return undefined;
  }
}

/** The original conversion of a CRD about to be switched, read now (to be saved before the switch). */
export async function currentConversion(
  client: KubeClient,
  name: string,
  backoff: Backoff = defaultBackoff,
): Promise<RecordedConversion> {
  const crd = await readRaw(client, name, backoff);
  return recordedOn(crd) ?? recordOf(crd);
}

/**
 * Switches the CRD's conversion to `None` and its status subresource off, recording the original in the
 * annotation in the same update. Under `None` the API server never calls the conversion webhook: it
 * relabels the apiVersion of what it reads, so every object can be read at the version it is stored in
 * and written whole at the storage version. Fails with a 409 when the CRD changed since `expected`.
 */
export async function switchConversionOff(
  client: KubeClient,
  name: string,
  record: RecordedConversion,
  expectedGeneration: number,
  backoff: Backoff = defaultBackoff,
): Promise<GenerationChange> {
  const crd = await readRaw(client, name, backoff);
  const before = crd.metadata.generation ?? 0;
  if (before !== expectedGeneration) {
    throw new Conflict(
      `customresourcedefinitions/${name}`,
      `the CRD changed since it was planned (generation ${before}, planned ${expectedGeneration})`,
    );
  }
  crd.metadata.annotations = {
    ...(crd.metadata.annotations ?? {}),
    [switchAnnotation]: JSON.stringify(record),
    [switchHolderAnnotation]: JSON.stringify(thisHolder()),
  };
  crd.metadata.labels = { ...(crd.metadata.labels ?? {}), [switchLabel]: 'true' };
  crd.spec.conversion = { strategy: 'None' };
  for (const version of crd.spec.versions) {
    if (!version.subresources || !('status' in version.subresources)) continue;
    const { status: _status, ...others } = version.subresources;
    if (Object.keys(others).length > 0) version.subresources = others;
    else delete version.subresources;
  }
  const written = await writeRaw(client, crd, backoff);
  return { before, after: written.metadata.generation ?? 0 };
}

/** What restoring found: nothing to do, restored, or someone else had already changed the conversion back. */
export type RestoreOutcome =
  | { restored: false }
  | ({ restored: true; note: string | undefined } & GenerationChange);

/**
 * Puts back the conversion and subresources recorded on the CRD, and removes the record. Where the CRD no
 * longer has `None` (an operator install re-applied it meanwhile), only the record is removed: what the
 * operator applied wins. Retried through 409s and a busy API server: a CRD must never stay switched.
 */
export async function restoreConversion(
  client: KubeClient,
  name: string,
  backoff: Backoff = defaultBackoff,
): Promise<RestoreOutcome> {
  for (let attempt = 0; ; attempt++) {
    const crd = await readRaw(client, name, backoff);
    const record = recordedOn(crd);
    const labelled = crd.metadata.labels?.[switchLabel] !== undefined;
    if (!record && crd.metadata.annotations?.[switchAnnotation] === undefined && !labelled) {
      return { restored: false };
    }
    const before = crd.metadata.generation ?? 0;
    const annotations = { ...(crd.metadata.annotations ?? {}) };
    delete annotations[switchAnnotation];
    delete annotations[switchHolderAnnotation];
    crd.metadata.annotations = annotations;
    const labels = { ...(crd.metadata.labels ?? {}) };
    delete labels[switchLabel];
    crd.metadata.labels = labels;
    const stillSwitched = (crd.spec.conversion as { strategy?: string } | undefined)?.strategy === 'None';
    let note: string | undefined;
    if (record && stillSwitched) {
      if (record.conversion === undefined) delete crd.spec.conversion;
      else crd.spec.conversion = record.conversion;
      for (const version of crd.spec.versions) {
        if (!Object.hasOwn(record.subresources, version.name)) continue;
        const original = record.subresources[version.name];
        if (original === undefined || original === null) delete version.subresources;
        else version.subresources = original as Record<string, unknown>;
      }
    } else {
      note = record
        ? 'its conversion had been changed by someone else meanwhile; that was kept'
        : 'its record of the original conversion could not be read; the conversion was left as it is';
    }
    try {
      const written = await writeRaw(client, crd, backoff);
      return { restored: true, note, before, after: written.metadata.generation ?? 0 };
    } catch (error) {
      if (error instanceof Conflict && attempt < 10) continue;
      throw error;
    }
  }
}

/** Asks the API server for objects' metadata only: a CRD list without its schemas, however many CRDs. */

/**
 * The names of every CRD a client-side run left switched, whatever `--kind` selects: one list of every
 * CRD's metadata (no schemas), kept where the record annotation or the label is on it (a CRD switched by a
 * version of this plugin that wrote only the annotation is found too); an empty list when the user may
 * not list CRDs (the selected CRDs are still checked one by one).
 */
export async function switchedCrdNames(
  client: KubeClient,
  backoff: Backoff = defaultBackoff,
  held?: (name: string, why: string) => void,
): Promise<string[]> {
  try {
    const list = await withBackoff(
      () =>
        client.request<{
          items?: Array<{
            metadata: { name: string; annotations?: Record<string, string>; labels?: Record<string, string> };
          }>;
        }>({
          path: resourcePath(crdType),
          accept: metadataOnly,
          subject: { verb: 'list', resource: 'customresourcedefinitions' },
        }),
      backoff,
    );
    return (list.items ?? [])
      .filter(
        (item) =>
          item.metadata.annotations?.[switchAnnotation] !== undefined ||
          item.metadata.labels?.[switchLabel] !== undefined,
      )
      .filter((item) => {
        if (!held) return true;
        const why = heldBy(item.metadata.annotations);
        if (why !== undefined) held(item.metadata.name, why);
        return why === undefined;
      })
      .map((item) => item.metadata.name)
      .sort();
  } catch (error) {
    if (error instanceof Forbidden) return [];
    throw error;
  }
}
