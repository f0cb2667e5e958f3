import { isDeepStrictEqual } from 'node:util';
import { ConversionError, WrongType } from '../../conversion/errors.ts';
import type { AsoError } from '../../errors.ts';
import { InvalidInput } from '../../errors.ts';
import type { ManifestEncoding } from '../../manifests/decode.ts';
import { type ManifestDocument, manifestDocument } from '../../manifests/documents.ts';
import { ManifestError } from '../../manifests/errors.ts';
import { checkObjectShape, objectLabel } from '../../manifests/object-shape.ts';
import { checkAsoName, checkObjectHead, isAsoApiVersion, type ManifestText } from '../../manifests/read.ts';
import {
  type CrdSchemas,
  convertManifestObject,
  type ManifestConversionOptions,
  type ObjectPlace,
  type ObjectResult,
} from './convert-object.ts';
import type { TextPiece } from './diff.ts';
import { rewriteYaml, unchanged } from './edit-yaml.ts';
import { ManifestObjectsFailed, NoManifestTarget } from './errors.ts';

/** One input file: its text before and after. */
export interface ConvertedFile {
  file: string;
  /** The `-f` value it was found under. */
  entry: string;
  /** The encoding the input file was in (see {@link ManifestText.encoding}). */
  encoding: ManifestEncoding;
  before: string;
  after: string;
  /** The text as stretches before and after, so that a diff compares only what changed. */
  pieces: TextPiece[];
}

/** Everything a manifest run converted, before anything is written. */
export interface ConvertedManifests {
  files: ConvertedFile[];
  objects: ObjectResult[];
  /**
   * The objects that could not be converted, in input order: each is left in its file as it was. The
   * caller decides whether the run fails before writing ({@link failureOf}) or writes the rest.
   */
  failures: AsoError[];
  /** The files holding them. */
  failedFiles: string[];
}

/** The error of a run with failures: the one failure itself, or all of them named together. */
export function failureOf(converted: ConvertedManifests, written: boolean): AsoError | undefined {
  const [first, ...more] = converted.failures;
  if (first === undefined) return undefined;
  return more.length === 0 && !written
    ? first
    : new ManifestObjectsFailed(converted.failedFiles, [first, ...more], written);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAsoObject(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'string' &&
    typeof value.kind === 'string' &&
    isAsoApiVersion(value.apiVersion)
  );
}

/**
 * Converts every ASO object in the input files, in memory, one document at a time: each document is
 * parsed, its ASO objects (also inside a `kind: List`) converted, and the document written back edited
 * (only where it changed) before the next is parsed, so a file of tens of thousands of objects never has
 * all its trees in memory at once. Malformed YAML fails the run with its file and line; an object that
 * cannot be converted is listed in `failures`. Documents of other APIs are left exactly as they were.
 */
export async function convertManifestFiles(
  texts: readonly ManifestText[],
  options: ManifestConversionOptions,
  schemas: CrdSchemas,
): Promise<ConvertedManifests> {
  const files: ConvertedFile[] = [];
  const objects: ObjectResult[] = [];
  const failures: AsoError[] = [];
  const failedFiles = new Set<string>();
  // An object that cannot be converted is recorded and left as it is, so that every failure of the run is
  // named, and so that a run told to keep going writes its file with the object unchanged.
  // Where each object without a version for `--to` sits, to name them all if none of the run's has one.
  const withoutTarget: { label: string; file: string; reason: string }[] = [];
  const attempt = async (
    work: () => ReturnType<typeof convertChecked>,
    original: unknown,
    file: string,
    label: string,
  ) => {
    try {
      const converted = await work();
      objects.push(converted.result);
      if (converted.result.noTarget)
        withoutTarget.push({ label, file, reason: converted.result.note ?? 'no version to move to' });
      return converted.value;
    } catch (error) {
      if (!(error instanceof ConversionError || error instanceof InvalidInput)) throw error;
      failures.push(error);
      failedFiles.add(file);
      return original;
    }
  };
  for (const text of texts) {
    let found = 0;
    const rewritten = await rewriteYaml(text.file, text.text, async ({ document: tree, index, lines }) => {
      const document = manifestDocument(text.file, tree, index, found + 1, lines);
      if (!document) return unchanged;
      found += 1;
      const root = document.value;
      const { line, number } = document;
      const at = `${text.file}${line === undefined ? '' : `:${line}`} (document ${number})`;
      const source = `${text.file}#${number}`;
      let next: unknown = root;
      checkObjectHead(text.file, document, [], source, root);
      if (typeof root.kind === 'string' && root.kind.endsWith('List') && Array.isArray(root.items)) {
        const items: unknown[] = [];
        for (const [i, item] of root.items.entries()) {
          checkObjectHead(text.file, document, ['items', i], `${source}.items[${i}]`, item);
          if (!isAsoObject(item)) {
            items.push(item);
            continue;
          }
          const where = { source: `${source}.items[${i}]`, label: `${at} items[${i}] ${label(item)}` };
          items.push(
            await attempt(
              () => convertChecked(text.file, document, ['items', i], item, where, options, schemas),
              item,
              text.file,
              where.label,
            ),
          );
        }
        next = { ...root, items };
      } else if (isAsoObject(root)) {
        const where = { source, label: `${at} ${label(root)}` };
        next = await attempt(
          () => convertChecked(text.file, document, [], root, where, options, schemas),
          root,
          text.file,
          where.label,
        );
      }
      return isDeepStrictEqual(next, root) ? unchanged : next;
    });
    files.push({
      file: text.file,
      entry: text.entry,
      encoding: text.encoding,
      before: text.text,
      after: rewritten.text,
      pieces: rewritten.pieces,
    });
  }
  // An exact version leaves the kinds without it as they are; when no object of the run has it, the version
  // is more likely mistyped than meant for objects elsewhere: each object is named, as a failure.
  if (options.target.kind === 'exact' && objects.length > 0 && withoutTarget.length === objects.length) {
    for (const { label, file, reason } of withoutTarget) {
      failures.push(new NoManifestTarget(label, reason));
      failedFiles.add(file);
    }
  }
  return { files, objects, failures, failedFiles: [...failedFiles] };
}

/**
 * Converts one object after the shared shape check, so a value of the wrong type is bad input named by
 * file, line, document and object as adopt-check names it; one the conversion itself finds deeper in the
 * spec is named the same way.
 */
async function convertChecked(
  file: string,
  document: ManifestDocument,
  at: ReadonlyArray<string | number>,
  object: Record<string, unknown>,
  where: ObjectPlace,
  options: ManifestConversionOptions,
  schemas: CrdSchemas,
): ReturnType<typeof convertManifestObject> {
  checkObjectShape(file, document, at, object);
  checkAsoName(file, document, at, object);
  try {
    return await convertManifestObject(object, where, options, schemas);
  } catch (error) {
    if (!(error instanceof WrongType)) throw error;
    const line = document.lineOf([...at, ...error.path.split('.')]) ?? document.lineOf(at) ?? document.line;
    throw new ManifestError(file, `${objectLabel(document, at, object)}: ${error.message}`, line);
  }
}

function label(object: Record<string, unknown>): string {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '?';
  return `${String(object.kind)}/${name}`;
}
