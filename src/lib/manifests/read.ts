import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseAllDocuments } from 'yaml';
import { ManifestError } from './errors.ts';

/** One Kubernetes object read from the user's input, with where it came from so that answers can point back. */
export interface ManifestObject {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; namespace?: string; annotations?: Record<string, string> } & Record<
    string,
    unknown
  >;
  spec?: Record<string, unknown>;
  /** `file` or `file#index` (index of the document in the file, from 1). */
  source: string;
}

/** What the input held: the ASO objects to check, and how many others were passed over (with their names). */
export interface ManifestSet {
  objects: ManifestObject[];
  passedOver: string[];
}

/** Where to read from: `-f` values (`-` is stdin), and whether folders are walked recursively. */
export interface ManifestInput {
  files: string[];
  recursive: boolean;
  /** Reads stdin; injected so tests need no process stdin. */
  readStdin?: () => string;
}

/** True when the apiVersion's group is an ASO group (`*.azure.com`); everything else is passed over. */
export function isAsoApiVersion(apiVersion: string): boolean {
  const slash = apiVersion.indexOf('/');
  return slash > 0 && apiVersion.slice(0, slash).endsWith('.azure.com');
}

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

/** Every file a `-f` value stands for: the file itself, or a folder's manifests (its subfolders only with -R). */
function filesOf(entry: string, recursive: boolean): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(entry);
  } catch {
    throw new ManifestError(entry, 'no such file or directory');
  }
  if (!stat.isDirectory()) return [entry];
  const found: string[] = [];
  for (const name of readdirSync(entry).sort()) {
    const full = path.join(entry, name);
    const s = statSync(full);
    if (s.isDirectory()) {
      if (recursive) found.push(...filesOf(full, recursive));
    } else if (manifestExtensions.has(path.extname(name).toLowerCase())) {
      found.push(full);
    }
  }
  return found;
}

/**
 * Reads the objects of `-f` inputs as kubectl does: multi-document YAML, JSON, and `kind: List`. It exists
 * so adopt-check sees exactly what `kubectl apply -f` would send, and fails on the same bad input with the
 * file and line, before any request is made.
 */
export function readManifests(input: ManifestInput): ManifestSet {
  const set: ManifestSet = { objects: [], passedOver: [] };
  for (const { file, text } of readManifestTexts(input)) parseInto(set, file, text);
  return set;
}

/** One input file's text, with where it came from. */
export interface ManifestText {
  /** The file's path, or `<stdin>`. */
  file: string;
  text: string;
  /** The `-f` value it was found under (a file, a folder, or `-`): where it sits relative to what was asked. */
  entry: string;
}

/**
 * The texts the `-f` values stand for, in order: kubectl's way of walking files and folders (`-R`) and
 * reading `-` from stdin, shared by every command that takes manifests so they all read the same files.
 */
export function readManifestTexts(input: ManifestInput): ManifestText[] {
  const texts: ManifestText[] = [];
  for (const entry of input.files) {
    if (entry === '-') {
      const text = (input.readStdin ?? (() => readFileSync(0, 'utf8')))();
      texts.push({ file: '<stdin>', text, entry });
      continue;
    }
    for (const file of filesOf(entry, input.recursive)) {
      texts.push({ file, text: readFileSync(file, 'utf8'), entry });
    }
  }
  return texts;
}

/** Parses one file's text (YAML is a superset of JSON, so one parser serves both) into the set. */
export function parseInto(set: ManifestSet, file: string, text: string): void {
  const lines = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  if (!Array.isArray(documents)) {
    return; // an empty stream
  }
  let index = 0;
  for (const document of documents) {
    const error = document.errors[0];
    if (error) {
      const line = lines.linePos(error.pos[0]).line;
      throw new ManifestError(file, `malformed YAML: ${error.message.split('\n')[0]}`, line);
    }
    const value: unknown = document.toJS();
    if (value === null || value === undefined) continue;
    index += 1;
    const line = document.contents ? lines.linePos(document.contents.range[0]).line : undefined;
    addObject(set, file, `${file}#${index}`, value, line);
  }
}

function addObject(set: ManifestSet, file: string, source: string, value: unknown, line?: number): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ManifestError(file, 'a document is not an object', line);
  }
  const object = value as Record<string, unknown>;
  const { apiVersion, kind } = object;
  const name = nameOf(object);
  if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '') {
    const missing = typeof apiVersion !== 'string' || apiVersion === '' ? 'apiVersion' : 'kind';
    throw new ManifestError(file, `object ${name ?? `#${source.split('#')[1]}`} has no ${missing}`, line);
  }
  if (kind === 'List' || kind.endsWith('List')) {
    const items = object.items;
    if (Array.isArray(items)) {
      items.forEach((item, i) => {
        addObject(set, file, `${source}.items[${i}]`, item, line);
      });
      return;
    }
  }
  if (!isAsoApiVersion(apiVersion)) {
    set.passedOver.push(`${kind}/${name ?? '?'} (${source})`);
    return;
  }
  if (name === undefined) throw new ManifestError(file, `${kind} object has no metadata.name`, line);
  const metadata = (object.metadata ?? {}) as ManifestObject['metadata'];
  const spec =
    typeof object.spec === 'object' && object.spec !== null
      ? (object.spec as Record<string, unknown>)
      : undefined;
  set.objects.push({ apiVersion, kind, metadata, ...(spec ? { spec } : {}), source });
}

function nameOf(object: Record<string, unknown>): string | undefined {
  const metadata = object.metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const name = (metadata as Record<string, unknown>).name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
