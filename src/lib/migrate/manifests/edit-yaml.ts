import { isDeepStrictEqual } from 'node:util';
import {
  Composer,
  CST,
  type Document,
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  Parser,
  parseDocument,
  type Scalar,
  type YAMLMap,
} from 'yaml';
import { ManifestError } from '../../manifests/errors.ts';
import type { TextPiece } from './diff.ts';

/** What a document's visitor returns to leave that document exactly as it was written. */
export const unchanged: unique symbol = Symbol('unchanged');

/** One document of a file as the visitor sees it: its tree, its place and its first line. */
export interface YamlDocument {
  document: Document.Parsed;
  /** The position of the document among the file's documents, from 0 (empty ones included). */
  index: number;
  /** The line its contents start on, from 1; undefined for an empty document. */
  line: number | undefined;
  /** The file's lines as far as parsed, to find the line of any node of this document. */
  lines: LineCounter;
}

/**
 * Rewrites a file document by document: each document is parsed, handed to `visit`, and written back
 * before the next one is parsed, so that memory holds one document's tree at a time, not a tree per
 * document of a file that may hold tens of thousands. `visit` returns the document's new value, or
 * {@link unchanged}. A changed document is first edited in its source tokens (only the scalars whose
 * values change, and map entries that go); when the change is more than that (keys added, a list grown)
 * or the edit does not read back as the value, that document alone is rendered again from its node tree,
 * changed node by node, so comments and key order survive there too. Everything else (other documents,
 * comments between them, directives) is written back byte for byte, so a run that changes nothing gives
 * back the input. Malformed YAML is a {@link ManifestError} naming the file and line.
 */
export async function rewriteYaml(
  file: string,
  text: string,
  visit: (document: YamlDocument) => unknown | Promise<unknown>,
): Promise<RewrittenYaml> {
  const lines = new LineCounter();
  const out = new PieceList();
  let directives: CST.Token[] = [];
  let index = 0;
  let indentSeq: boolean | undefined;
  for (const token of new Parser(lines.addNewLine).parse(text)) {
    if (token.type === 'error') {
      throw new ManifestError(file, `malformed YAML: ${token.message}`, lines.linePos(token.offset).line);
    }
    if (token.type !== 'document') {
      // A directive belongs to the document after it, which must be composed with it.
      if (token.type === 'directive') directives.push(token);
      out.keep(CST.stringify(token));
      continue;
    }
    const composed = [
      ...new Composer({ keepSourceTokens: true, prettyErrors: false }).compose([...directives, token]),
    ];
    directives = [];
    const document = composed[0];
    if (!document) {
      out.keep(CST.stringify(token));
      continue;
    }
    const error = document.errors[0];
    if (error) {
      throw new ManifestError(
        file,
        `malformed YAML: ${error.message.split('\n')[0]}`,
        lines.linePos(error.pos[0]).line,
      );
    }
    const line = document.contents ? lines.linePos(document.contents.range[0]).line : undefined;
    const value = await visit({ document, index, line, lines });
    index += 1;
    const before = CST.stringify(token);
    if (value === unchanged) {
      out.keep(before);
      continue;
    }
    if (editInPlace(document, token, value)) {
      out.change(before, CST.stringify(token));
      continue;
    }
    indentSeq ??= indentsSequences(text);
    out.change(before, renderDocument(document, value, indentSeq));
  }
  return { text: out.text(), pieces: out.pieces };
}

/** A file rewritten by {@link rewriteYaml}: its new text, and the stretches that changed for a diff. */
export interface RewrittenYaml {
  text: string;
  /** The file as stretches of whole lines before and after; unchanged stretches run together. */
  pieces: TextPiece[];
}

/**
 * The pieces of a rewritten file, built in order. Unchanged text runs together into one piece, and a
 * piece that does not end a line takes the next one in, so every piece but the last is whole lines.
 */
class PieceList {
  readonly pieces: TextPiece[] = [];

  keep(text: string): void {
    this.add(text, text);
  }

  change(before: string, after: string): void {
    this.add(before, after);
  }

  text(): string {
    return this.pieces.map((piece) => piece.after).join('');
  }

  private add(before: string, after: string): void {
    const last = this.pieces.at(-1);
    const joins =
      last !== undefined &&
      ((last.before === last.after && before === after) ||
        !last.before.endsWith('\n') ||
        !last.after.endsWith('\n'));
    if (last && joins) {
      last.before += before;
      last.after += after;
    } else {
      this.pieces.push({ before, after });
    }
  }
}

type Primitive = string | number | boolean | null;

function isPrimitive(value: unknown): value is Primitive {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsOf(document: Document, node: unknown): unknown {
  return isNode(node) ? node.toJS(document) : node;
}

function keyOf(key: unknown): string {
  return String(isScalar(key) ? key.value : key);
}

/** One change made inside the source tokens: a scalar's new value, or a map entry taken out. */
type TokenEdit =
  | { op: 'scalar'; node: Scalar; value: Primitive }
  | { op: 'remove'; map: YAMLMap; key: string };

/**
 * Rewrites one document inside its source tokens: scalars whose values change (a renamed key is its key
 * scalar changing) and map entries that go. False when the change is more than that (a key added, a list
 * grown), or when the edited text does not parse back to `value`.
 */
function editInPlace(document: Document.Parsed, token: CST.Token, value: unknown): boolean {
  const edits: TokenEdit[] = [];
  if (!collectEdits(document, document.contents, value, edits)) return false;
  const before = CST.stringify(token);
  for (const edit of edits) {
    if (edit.op === 'remove') {
      const map = edit.map.srcToken;
      if (map?.type !== 'block-map') return false;
      const at = map.items.findIndex((item) => item.key && resolvedKey(item.key) === edit.key);
      if (at < 0) return false;
      map.items.splice(at, 1);
      continue;
    }
    const source = edit.node.srcToken;
    if (!source) return false;
    const text = edit.value === null ? 'null' : String(edit.value);
    CST.setScalarValue(source, text, { type: scalarTypeFor(edit.node, edit.value) });
  }
  const after = CST.stringify(token);
  // When false, the caller renders this document from its tree, which replaces the edited token whole.
  return after !== before && isDeepStrictEqual(parseDocument(after).toJS(), value);
}

/** The text of a block map's key token, as the map's node would read it. */
function resolvedKey(token: CST.Token): string | undefined {
  return CST.isScalar(token) ? CST.resolveAsScalar(token).value : undefined;
}

/** The quoting a new scalar value needs: the user's own, unless a plain string would read as another type. */
function scalarTypeFor(node: Scalar, value: Primitive): Scalar.Type {
  const current = node.type ?? 'PLAIN';
  if (typeof value !== 'string') return 'PLAIN';
  if (current !== 'PLAIN') return current;
  const plainReadsBack = (() => {
    try {
      return parseDocument(`k: ${value}`).toJS()?.k === value;
    } catch {
      return false;
    }
  })();
  return plainReadsBack && !value.includes('\n') ? 'PLAIN' : 'QUOTE_DOUBLE';
}

/**
 * Collects the edits that turn `node` into `next`; false when that takes more than scalar changes and
 * removed map entries. A map whose keys differ pairs each key that goes with a key that comes, in order,
 * as a rename (the conversions rename properties far more often than they add any).
 */
function collectEdits(document: Document, node: unknown, next: unknown, edits: TokenEdit[]): boolean {
  if (isDeepStrictEqual(jsOf(document, node), next)) return true;
  if (isScalar(node) && isPrimitive(next) && node.srcToken) {
    edits.push({ op: 'scalar', node, value: next });
    return true;
  }
  if (isMap(node) && isRecord(next)) {
    const keys = node.items.map((pair) => keyOf(pair.key));
    const gone = keys.filter((key) => !Object.hasOwn(next, key));
    const added = Object.keys(next).filter((key) => !keys.includes(key));
    if (added.length > gone.length) return false;
    const renamed = new Map(added.map((key, i) => [gone[i] as string, key]));
    return node.items.every((pair) => {
      const key = keyOf(pair.key);
      const to = Object.hasOwn(next, key) ? key : renamed.get(key);
      if (to === undefined) {
        edits.push({ op: 'remove', map: node, key });
        return true;
      }
      if (to !== key) {
        if (!isScalar(pair.key) || !pair.key.srcToken) return false;
        edits.push({ op: 'scalar', node: pair.key, value: to });
      }
      return collectEdits(document, pair.value, next[to], edits);
    });
  }
  if (isSeq(node) && Array.isArray(next) && node.items.length === next.length) {
    return node.items.every((item, i) => collectEdits(document, item, next[i], edits));
  }
  return false;
}

/** Changes the document's tree node by node to hold `value`, then renders that document alone. */
function renderDocument(document: Document.Parsed, value: unknown, indentSeq: boolean): string {
  document.contents = reconcile(document, document.contents, value) as typeof document.contents;
  return document.toString({ lineWidth: 0, indentSeq, flowCollectionPadding: false });
}

/**
 * Makes `node` hold `next`, keeping every node whose value does not change (and so its comments): map
 * keys keep their order, removed keys go, new keys are appended; a scalar keeps its style.
 */
function reconcile(document: Document, node: unknown, next: unknown): unknown {
  if (isDeepStrictEqual(jsOf(document, node), next)) return node;
  if (isMap(node) && isRecord(next)) {
    node.items = node.items.filter((pair) => Object.hasOwn(next, keyOf(pair.key)));
    const present = new Set<string>();
    for (const pair of node.items) {
      const key = keyOf(pair.key);
      present.add(key);
      pair.value = reconcile(document, pair.value, next[key]) as typeof pair.value;
    }
    for (const [key, value] of Object.entries(next)) {
      if (!present.has(key)) node.items.push(document.createPair(key, value));
    }
    return node;
  }
  if (isSeq(node) && Array.isArray(next)) {
    node.items = next.map((value, i) =>
      i < node.items.length ? reconcile(document, node.items[i], value) : document.createNode(value),
    );
    return node;
  }
  if (isScalar(node) && isPrimitive(next) && typeof node.value === typeof next) {
    node.value = next;
    return node;
  }
  const created = document.createNode(next) as Node;
  if (isNode(node)) {
    created.comment = node.comment;
    created.commentBefore = node.commentBefore;
    created.spaceBefore = node.spaceBefore;
  }
  return created;
}

/**
 * Whether the file indents a list under its key (`key:\n  - a`) or not (`key:\n- a`, kubectl's own
 * output): a rendered document follows the file's habit, so that its lists do not all move.
 */
function indentsSequences(text: string): boolean {
  const flush = /^( *)[^\s#-][^\n]*:[ \t]*\n\1- /m.test(text);
  const indented = /^( *)[^\s#-][^\n]*:[ \t]*\n\1 +- /m.test(text);
  return indented || !flush;
}
