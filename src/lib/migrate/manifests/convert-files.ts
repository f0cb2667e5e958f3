import { isDeepStrictEqual } from 'node:util';
import { isAsoApiVersion, type ManifestText } from '../../adoption/manifests.ts';
import {
  type CrdSchemas,
  convertManifestObject,
  type ManifestConversionOptions,
  type ObjectResult,
} from './convert-object.ts';
import type { TextPiece } from './diff.ts';
import { rewriteYaml, unchanged } from './edit-yaml.ts';

/** One input file: its text before and after. */
export interface ConvertedFile {
  file: string;
  /** The `-f` value it was found under. */
  entry: string;
  before: string;
  after: string;
  /** The text as stretches before and after, so that a diff compares only what changed. */
  pieces: TextPiece[];
}

/** Everything a manifest run converted, before anything is written. */
export interface ConvertedManifests {
  files: ConvertedFile[];
  objects: ObjectResult[];
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
 * all its trees in memory at once. Malformed YAML fails the run with its file and line, and nothing is
 * written before every file has converted. Documents of other APIs are left exactly as they were.
 */
export async function convertManifestFiles(
  texts: readonly ManifestText[],
  options: ManifestConversionOptions,
  schemas: CrdSchemas,
): Promise<ConvertedManifests> {
  const files: ConvertedFile[] = [];
  const objects: ObjectResult[] = [];
  for (const text of texts) {
    let number = 0;
    const rewritten = await rewriteYaml(text.file, text.text, async ({ document, line }) => {
      const root: unknown = document.toJS();
      if (root === null || root === undefined) return unchanged;
      number += 1;
      const at = `${text.file}${line === undefined ? '' : `:${line}`} (document ${number})`;
      const source = `${text.file}#${number}`;
      let next: unknown = root;
      if (
        isRecord(root) &&
        typeof root.kind === 'string' &&
        root.kind.endsWith('List') &&
        Array.isArray(root.items)
      ) {
        const items: unknown[] = [];
        for (const [i, item] of root.items.entries()) {
          if (!isAsoObject(item)) {
            items.push(item);
            continue;
          }
          const where = { source: `${source}.items[${i}]`, label: `${at} items[${i}] ${label(item)}` };
          const converted = await convertManifestObject(item, where, options, schemas);
          objects.push(converted.result);
          items.push(converted.value);
        }
        next = { ...root, items };
      } else if (isAsoObject(root)) {
        const converted = await convertManifestObject(
          root,
          { source, label: `${at} ${label(root)}` },
          options,
          schemas,
        );
        objects.push(converted.result);
        next = converted.value;
      }
      return isDeepStrictEqual(next, root) ? unchanged : next;
    });
    files.push({
      file: text.file,
      entry: text.entry,
      before: text.text,
      after: rewritten.text,
      pieces: rewritten.pieces,
    });
  }
  return { files, objects };
}

function label(object: Record<string, unknown>): string {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '?';
  return `${String(object.kind)}/${name}`;
}
