import { type Document, isAlias, type LineCounter, visit } from 'yaml';
import { ManifestError } from './errors.ts';

/** One document of a manifest file that holds something: its value, and where it and its parts are. */
export interface ManifestDocument {
  /** Its place among all the file's documents, empty ones included (what an editor of the file indexes). */
  index: number;
  /** Its number among the documents that hold something, from 1: what messages and sources call it. */
  number: number;
  /** The line its contents start at. */
  line: number | undefined;
  value: Record<string, unknown>;
  /** The line of the value at a path inside the document, when the document has that node. */
  lineOf(at: ReadonlyArray<string | number>): number | undefined;
}

/** How many alias expansions one document may take: the yaml library's own default, named here. */
const maxAliasCount = 100;

/**
 * The documents of one parsed manifest file, as every command that reads manifests must see them: a
 * malformed document, an alias without an anchor before it in its own document (an anchor of another
 * document does not count, as in every YAML reader), an alias bomb, and a document that is not an object
 * are each a {@link ManifestError} naming the file, the line and the document. Empty and comment-only
 * documents are passed over.
 */
export function manifestDocuments(
  file: string,
  documents: readonly Document.Parsed[],
  lines: LineCounter,
): ManifestDocument[] {
  const found: ManifestDocument[] = [];
  for (const [index, document] of documents.entries()) {
    const read = manifestDocument(file, document, index, found.length + 1, lines);
    if (read) found.push(read);
  }
  return found;
}

/**
 * One document of a manifest file, checked as {@link manifestDocuments} checks each (for a reader that
 * takes a file one document at a time); undefined for an empty or comment-only document. `number` is
 * the number it gets if it holds something.
 */
export function manifestDocument(
  file: string,
  document: Document.Parsed,
  index: number,
  number: number,
  lines: LineCounter,
): ManifestDocument | undefined {
  const lineAt = (offset: number | undefined) =>
    offset === undefined ? undefined : lines.linePos(offset).line;
  const error = document.errors[0];
  if (error)
    throw new ManifestError(file, `malformed YAML: ${error.message.split('\n')[0]}`, lineAt(error.pos[0]));
  const line = lineAt(document.contents?.range[0]);
  // An alias resolves to the last anchor of its name before it in the same document: one pass in
  // document order finds those that have none, with their line (resolving each alone is quadratic).
  const anchors = new Set<string>();
  visit(document, {
    Node(_, node) {
      if (isAlias(node)) {
        if (anchors.has(node.source)) return;
        throw new ManifestError(
          file,
          `document ${number}: alias *${node.source} has no anchor before it in this document`,
          lineAt(node.range?.[0]),
        );
      }
      if (node.anchor) anchors.add(node.anchor);
    },
  });
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount });
  } catch (thrown) {
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    const problem = /Excessive alias count/.test(message)
      ? `too many aliases (more than ${maxAliasCount} expansions, as in an alias bomb); refused`
      : message;
    throw new ManifestError(file, `document ${number}: ${problem}`, line);
  }
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ManifestError(file, `document ${number} is not an object (it is ${kindOf(value)})`, line);
  }
  return {
    index,
    number,
    line,
    value: value as Record<string, unknown>,
    lineOf: (at) => {
      const node: unknown = document.getIn(at, true);
      if (isAlias(node) || typeof node !== 'object' || node === null || !('range' in node)) return undefined;
      return lineAt((node as { range?: [number, number, number] }).range?.[0]);
    },
  };
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}
