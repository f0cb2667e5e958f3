import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { KubeconfigFileUnreadable, KubeconfigInvalid } from './errors.ts';

/** A cluster, user or context entry as a kubeconfig file writes it: any keys, kept for whoever reads them. */
export type KubeconfigEntry = Record<string, unknown>;

/** The kubeconfig files merged into one, as kubectl merges them, with every relative path made absolute. */
export interface MergedKubeconfig {
  currentContext: string | undefined;
  clusters: Map<string, KubeconfigEntry>;
  users: Map<string, KubeconfigEntry>;
  contexts: Map<string, KubeconfigEntry>;
  /** The files, for messages. */
  sources: string[];
}

// The keys whose values are file paths, which kubectl reads relative to the file that names them.
const pathKeys: Record<'cluster' | 'user', string[]> = {
  cluster: ['certificate-authority'],
  user: ['client-certificate', 'client-key', 'tokenFile', 'token-file'],
};

interface NamedEntry {
  name?: unknown;
  [section: string]: unknown;
}

function absolutePaths(entry: KubeconfigEntry, keys: string[], base: string): KubeconfigEntry {
  const copy = { ...entry };
  for (const key of keys) {
    const value = copy[key];
    if (typeof value === 'string' && value !== '' && !isAbsolute(value)) copy[key] = join(base, value);
  }
  const exec = copy.exec as KubeconfigEntry | undefined;
  if (exec && typeof exec.command === 'string' && exec.command.includes('/') && !isAbsolute(exec.command)) {
    copy.exec = { ...exec, command: join(base, exec.command) };
  }
  return copy;
}

function addFirst(
  into: Map<string, KubeconfigEntry>,
  list: unknown,
  section: 'cluster' | 'user' | 'context',
  file: string,
): void {
  if (list === undefined || list === null) return;
  if (!Array.isArray(list)) throw new KubeconfigInvalid(file, `"${section}s" is not a list`);
  for (const item of list as NamedEntry[]) {
    if (typeof item?.name !== 'string') throw new KubeconfigInvalid(file, `a ${section} entry has no name`);
    if (into.has(item.name)) continue;
    const body = (item[section] ?? {}) as KubeconfigEntry;
    const keys = section === 'context' ? [] : pathKeys[section];
    into.set(item.name, absolutePaths(body, keys, dirname(file)));
  }
}

/**
 * Reads and merges kubeconfig files the way kubectl does: the first file that names a cluster, user or
 * context wins, the first file that sets current-context wins, and paths are relative to their own file.
 * (client-node's merge throws on a name that two files share, which kubectl allows.)
 */
export async function mergeKubeconfigFiles(files: string[]): Promise<MergedKubeconfig> {
  const { parse } = await import('yaml');
  const merged: MergedKubeconfig = {
    currentContext: undefined,
    clusters: new Map(),
    users: new Map(),
    contexts: new Map(),
    sources: files,
  };
  for (const file of files) {
    let document: Record<string, unknown>;
    try {
      const parsed: unknown = parse(readFileSync(file, 'utf8'));
      document = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch (error) {
      throw new KubeconfigInvalid(
        file,
        error instanceof Error ? error.message.split('\n')[0]! : String(error),
      );
    }
    const current = document['current-context'];
    if (merged.currentContext === undefined && typeof current === 'string' && current !== '') {
      merged.currentContext = current;
    }
    addFirst(merged.clusters, document.clusters, 'cluster', file);
    addFirst(merged.users, document.users, 'user', file);
    addFirst(merged.contexts, document.contexts, 'context', file);
  }
  return merged;
}

/**
 * The merged kubeconfig as one kubeconfig document for the client library, holding only the current
 * context, its cluster and its user: the library reads every user's files at load, so another user's
 * missing token file would fail (and be blamed) for a context that never uses it.
 */
export function asKubeconfigDocument(
  merged: MergedKubeconfig,
  currentContext: string,
): Record<string, unknown> {
  const context = merged.contexts.get(currentContext) ?? {};
  const only = (map: Map<string, KubeconfigEntry>, name: unknown) =>
    [...map].filter(([entryName]) => entryName === String(name ?? ''));
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: only(merged.clusters, context.cluster).map(([name, cluster]) => ({ name, cluster })),
    users: only(merged.users, context.user).map(([name, body]) => ({ name, user: withTokenFromFile(body) })),
    contexts: [{ name: currentContext, context }],
    'current-context': currentContext,
  };
}

/**
 * kubectl spells the token file `tokenFile` and trims what it reads; the client library reads only
 * `token-file` and sends the text untrimmed (a trailing newline makes the header invalid). The client
 * library is handed the trimmed token itself.
 */
function withTokenFromFile(user: KubeconfigEntry): KubeconfigEntry {
  const path = [user.tokenFile, user['token-file']].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  if (path === undefined || user.token !== undefined) return user;
  const { tokenFile: _kubectl, 'token-file': _client, ...rest } = user;
  return { ...rest, token: readFileSync(path, 'utf8').trim() };
}

/** Why a file could not be read, in a few words (`ENOENT: no such file or directory`), without the stack. */
export function readFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split(',')[0] ?? message;
}

/**
 * Reads every file the selected cluster and user name (CA, client certificate and key, token file), so
 * that a missing or unreadable one is a kubeconfig error naming the file, the context and the key, before
 * any request, whichever path (fast or client library) later reads it.
 */
export function checkKubeconfigFiles(
  contextName: string,
  entries: Array<{ section: 'cluster' | 'user'; name: string; entry: KubeconfigEntry }>,
): void {
  for (const { section, name, entry } of entries) {
    for (const key of pathKeys[section]) {
      const file = entry[key];
      if (typeof file !== 'string' || file === '') continue;
      try {
        readFileSync(file);
      } catch (error) {
        throw new KubeconfigFileUnreadable(
          contextName,
          `${section} "${name}"`,
          key,
          file,
          readFailure(error),
        );
      }
    }
  }
}
