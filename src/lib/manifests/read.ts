import { readFileSync } from 'node:fs';
import { LineCounter, parseAllDocuments } from 'yaml';
import { UsageError } from '../errors.ts';
import { decodeManifest, type ManifestEncoding } from './decode.ts';
import { type ManifestDocument, manifestDocuments } from './documents.ts';
import { ManifestError } from './errors.ts';
import { checkObjectShape } from './object-shape.ts';
import { manifestFilesOf, unreadable } from './walk.ts';

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
  /** Each object with its file and lines, when the reader asked for them ({@link readLocatedManifests}). */
  located?: LocatedObject[];
}

/** An ASO object of the input, with its file and the line of any path inside it, for findings that point at one. */
export interface LocatedObject {
  readonly object: ManifestObject;
  readonly file: string;
  /** The line of the value at `path` inside the object, else of the object itself. */
  readonly lineOf: (path: ReadonlyArray<string | number>) => number | undefined;
}

/** Where to read from: `-f` values (`-` is stdin), and whether folders are walked recursively. */
export interface ManifestInput {
  files: string[];
  recursive: boolean;
  /** Reads stdin; injected so tests need no process stdin. */
  readStdin?: () => string | Uint8Array;
}

/** True when the apiVersion's group is an ASO group (`*.azure.com`); everything else is passed over. */
export function isAsoApiVersion(apiVersion: string): boolean {
  const slash = apiVersion.indexOf('/');
  return slash > 0 && apiVersion.slice(0, slash).endsWith('.azure.com');
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

/** {@link readManifests}, keeping each object's file and lines. */
export function readLocatedManifests(input: ManifestInput): Required<ManifestSet> {
  const set: Required<ManifestSet> = { objects: [], passedOver: [], located: [] };
  for (const { file, text } of readManifestTexts(input)) parseInto(set, file, text);
  return set;
}

/** One input file's text, with where it came from. */
export interface ManifestText {
  /** The file's path, or `<stdin>`. */
  file: string;
  /** The decoded text, without a byte order mark. */
  text: string;
  /**
   * The encoding the file's bytes were in: a writer that puts text back into the file must write it in
   * this encoding (or refuse), since the text alone does not say it.
   */
  encoding: ManifestEncoding;
  /** The `-f` value it was found under (a file, a folder, or `-`): where it sits relative to what was asked. */
  entry: string;
}

/**
 * The texts the `-f` values stand for, in order: kubectl's way of walking files and folders (`-R`) and
 * reading `-` from stdin, shared by every command that takes manifests so they all read the same files.
 */
export function readManifestTexts(input: ManifestInput): ManifestText[] {
  // stdin is read to its end once: a second `-` could only read nothing, and count a file that is not there.
  if (input.files.filter((entry) => entry === '-').length > 1) {
    throw new UsageError('-f - is given twice: stdin can be read only once');
  }
  const texts: ManifestText[] = [];
  for (const entry of input.files) {
    if (entry === '-') {
      const file = '<stdin>';
      const read = (input.readStdin ?? (() => readBytes(file, 0)))();
      const decoded =
        typeof read === 'string' ? { text: read, encoding: 'utf8' as const } : decodeManifest(file, read);
      texts.push({ file, ...decoded, entry });
      continue;
    }
    for (const file of manifestFilesOf(entry, input.recursive)) {
      texts.push({ file, ...decodeManifest(file, readBytes(file, file)), entry });
    }
  }
  return texts;
}

function readBytes(file: string, from: string | number): Buffer {
  try {
    return readFileSync(from);
  } catch (error) {
    throw unreadable(file, error);
  }
}

/** Parses one file's text (YAML is a superset of JSON, so one parser serves both) into the set. */
export function parseInto(set: ManifestSet, file: string, text: string): void {
  const lines = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  if (!Array.isArray(documents)) {
    return; // an empty stream
  }
  for (const document of manifestDocuments(file, documents, lines)) {
    addObject(set, file, document, [], `${file}#${document.number}`, document.value);
  }
}

function addObject(
  set: ManifestSet,
  file: string,
  document: ManifestDocument,
  at: ReadonlyArray<string | number>,
  source: string,
  value: unknown,
): void {
  const object = checkObjectHead(file, document, at, source, value);
  const { apiVersion, kind } = object;
  const name = nameOf(object);
  if (kind === 'List' || kind.endsWith('List')) {
    const items = object.items;
    if (Array.isArray(items)) {
      items.forEach((item, i) => {
        addObject(set, file, document, ['items', i], `${source}.items[${i}]`, item);
      });
      return;
    }
  }
  if (!isAsoApiVersion(apiVersion)) {
    set.passedOver.push(`${kind}/${name ?? '?'} (${source})`);
    return;
  }
  checkObjectShape(file, document, at, object);
  checkAsoName(file, document, at, object);
  const metadata = (object.metadata ?? {}) as ManifestObject['metadata'];
  const spec = object.spec as Record<string, unknown> | undefined;
  const read: ManifestObject = { apiVersion, kind, metadata, ...(spec ? { spec } : {}), source };
  set.objects.push(read);
  set.located?.push({
    object: read,
    file,
    lineOf: (path) => document.lineOf([...at, ...path]) ?? document.lineOf(at) ?? document.line,
  });
}

/**
 * What every object of a manifest must have, checked the same way by `adopt-check` and `migrate -f`: to be
 * an object, with an apiVersion and a kind that are non-empty strings. An object without them would
 * otherwise be passed over as "not ASO's", and a run on nothing would pass.
 */
export function checkObjectHead(
  file: string,
  document: ManifestDocument,
  at: ReadonlyArray<string | number>,
  source: string,
  value: unknown,
): Record<string, unknown> & { apiVersion: string; kind: string } {
  const line = document.lineOf(at) ?? document.line;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ManifestError(file, `document ${document.number} items[${at[1]}] is not an object`, line);
  }
  const object = value as Record<string, unknown>;
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || apiVersion === '' || typeof kind !== 'string' || kind === '') {
    const missing = typeof apiVersion !== 'string' || apiVersion === '' ? 'apiVersion' : 'kind';
    const name = nameOf(object);
    throw new ManifestError(file, `object ${name ?? `#${source.split('#')[1]}`} has no ${missing}`, line);
  }
  return object as Record<string, unknown> & { apiVersion: string; kind: string };
}

/** An ASO object needs a name (the operator, `adopt-check` and every report name it); checked by both readers. */
export function checkAsoName(
  file: string,
  document: ManifestDocument,
  at: ReadonlyArray<string | number>,
  object: Record<string, unknown>,
): void {
  if (nameOf(object) !== undefined) return;
  throw new ManifestError(
    file,
    `${String(object.kind)} object has no metadata.name`,
    document.lineOf(at) ?? document.line,
  );
}

function nameOf(object: Record<string, unknown>): string | undefined {
  const metadata = object.metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const name = (metadata as Record<string, unknown>).name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
