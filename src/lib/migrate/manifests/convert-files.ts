import { isDeepStrictEqual } from 'node:util';
import { isAsoApiVersion, type ManifestText } from '../../manifests/read.ts';
import {
  type CrdSchemas,
  convertManifestObject,
  type ManifestConversionOptions,
  type ObjectResult,
} from './convert-object.ts';
import { parseYaml, writeYaml } from './edit-yaml.ts';

/** One input file: its text before and after. */
export interface ConvertedFile {
  file: string;
  /** The `-f` value it was found under. */
  entry: string;
  before: string;
  after: string;
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
 * Converts every ASO object in the input files, in memory: each file is parsed (a malformed one fails the
 * run with its file and line before anything is written), each ASO object (also inside a `kind: List`)
 * is converted, and each file is written back with only the documents that changed edited. Documents of
 * other APIs are left exactly as they were.
 */
export async function convertManifestFiles(
  texts: readonly ManifestText[],
  options: ManifestConversionOptions,
  schemas: CrdSchemas,
): Promise<ConvertedManifests> {
  const parsed = texts.map((text) => ({ text, yaml: parseYaml(text.file, text.text) }));
  const files: ConvertedFile[] = [];
  const objects: ObjectResult[] = [];
  for (const { text, yaml } of parsed) {
    const changes = new Map<number, unknown>();
    let number = 0;
    for (const [index, document] of yaml.documents.entries()) {
      const root: unknown = document.toJS();
      if (root === null || root === undefined) continue;
      number += 1;
      const line = document.contents ? yaml.lines.linePos(document.contents.range[0]).line : undefined;
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
      if (!isDeepStrictEqual(next, root)) changes.set(index, next);
    }
    const after = writeYaml(yaml, changes);
    files.push({ file: text.file, entry: text.entry, before: text.text, after });
  }
  return { files, objects };
}

function label(object: Record<string, unknown>): string {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '?';
  return `${String(object.kind)}/${name}`;
}
