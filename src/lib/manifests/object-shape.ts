import { WrongType } from '../conversion/errors.ts';
import type { ManifestDocument } from './documents.ts';
import { ManifestError } from './errors.ts';

type Expected = 'an object' | 'a string' | 'a map of strings';

/** The fields every ASO object has and every command reads, with the JSON type each must have. */
const shape: ReadonlyArray<[path: string[], expected: Expected]> = [
  [['metadata'], 'an object'],
  [['metadata', 'name'], 'a string'],
  [['metadata', 'namespace'], 'a string'],
  // The API server refuses anything else here; the commands read them (policies, selectors) before it would.
  [['metadata', 'labels'], 'a map of strings'],
  [['metadata', 'annotations'], 'a map of strings'],
  [['spec'], 'an object'],
  [['spec', 'location'], 'a string'],
  [['spec', 'azureName'], 'a string'],
  [['spec', 'owner'], 'an object'],
  // Every owner of every v2.20.0 CRD has string fields alone (name, armId, and group and kind for
  // extension resources): adopt-check resolves the owner from them.
  [['spec', 'owner', 'name'], 'a string'],
  [['spec', 'owner', 'armId'], 'a string'],
  [['spec', 'owner', 'group'], 'a string'],
  [['spec', 'owner', 'kind'], 'a string'],
];

/**
 * Checks the fields every ASO object shares (`spec` an object, `spec.location` a string, ...), so that
 * `spec: "str"` or `location: 42` is refused by every command the same way, naming the file, the line of
 * the value, the document and the object, before any command reads them. `at` is where the object sits in
 * its document (`[]`, or `['items', i]` in a List).
 */
export function checkObjectShape(
  file: string,
  document: ManifestDocument,
  at: ReadonlyArray<string | number>,
  object: Record<string, unknown>,
): void {
  for (const [path, expected] of shape) {
    const value = valueAt(object, path);
    if (value === undefined || value === null || fits(value, expected)) continue;
    const problem = new WrongType(path.join('.'), expected, value).message;
    throw new ManifestError(
      file,
      `${objectLabel(document, at, object)}: ${problem}`,
      document.lineOf([...at, ...path]) ?? document.line,
    );
  }
}

/**
 * An object as messages name it: its document, its place in a List, its kind, name and namespace
 * (`document 2 items[0], FlexibleServer/orders-db (namespace shop)`).
 */
export function objectLabel(
  document: ManifestDocument,
  at: ReadonlyArray<string | number>,
  object: Record<string, unknown>,
): string {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '?';
  const namespace = typeof metadata.namespace === 'string' ? ` (namespace ${metadata.namespace})` : '';
  const item = at.length === 2 ? ` items[${at[1]}]` : '';
  return `document ${document.number}${item}, ${String(object.kind)}/${name}${namespace}`;
}

function valueAt(object: Record<string, unknown>, path: string[]): unknown {
  let value: unknown = object;
  for (const key of path) {
    if (!isRecord(value)) return undefined;
    value = value[key];
  }
  return value;
}

function fits(value: unknown, expected: Expected): boolean {
  if (expected === 'a string') return typeof value === 'string';
  if (expected === 'an object') return isRecord(value);
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
