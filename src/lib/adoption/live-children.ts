import type { LiveChildren, LiveElement } from '../conversion/arm.ts';
import { isObject, setKey } from '../conversion/checks.ts';

/** The body the operator PUTs once its copy of Azure's children is made, or why its reconcile fails there. */
export type BodyWithChildren = { body: Record<string, unknown> } | { refused: string };

/**
 * The body after the operator's copy of the live resource's child collection into it (ASO v2.20.0's
 * `ModifyARMResource` of virtual networks, network security groups, route tables, load balancers and
 * scale sets): Azure's children as the Go element type keeps them, in place of the body's (`replace`) or
 * after them, those whose `name` no element of the body has (`byName`, the names compared exactly).
 * `live` is the resource as the operator's GET returns it, at the same API version as its PUT; without one
 * (the resource does not exist) the body goes as it is.
 */
export function bodyWithLiveChildren(
  body: Record<string, unknown>,
  live: Record<string, unknown> | undefined,
  children: LiveChildren,
): BodyWithChildren {
  if (live === undefined) return { body };
  const path = children.path.split('.');
  const collection = path.at(-1) as string;
  let held: unknown = live;
  for (const [i, key] of path.slice(0, -1).entries()) {
    const next: unknown = isObject(held) ? held[key] : undefined;
    if (!isObject(next)) {
      // A scale set without an extension profile in Azure: the operator finds no children to copy.
      if (children.parentsOptional && next === undefined) return { body };
      return { refused: `Azure's resource has no object ${path.slice(0, i + 1).join('.')}` };
    }
    held = next;
  }
  const found = (held as Record<string, unknown>)[collection];
  if (!Array.isArray(found)) return { refused: `Azure's resource has no list ${children.path}` };
  let azure: unknown[];
  try {
    azure = found.map((element, i) => keptOf(element, children.element, `${children.path}[${i}]`));
  } catch (error) {
    if (error instanceof NotTheGoType) return { refused: error.message };
    throw error;
  }
  const out = structuredClone(body);
  let parent: Record<string, unknown> = out;
  // The operator's reflection makes every object on the way that the body lacks.
  for (const key of path.slice(0, -1)) {
    const next = parent[key];
    if (!isObject(next)) setKey(parent, key, {});
    parent = parent[key] as Record<string, unknown>;
  }
  const own = Array.isArray(parent[collection]) ? (parent[collection] as unknown[]) : [];
  const merged =
    children.merge === 'replace' || own.length === 0
      ? azure
      : [...own, ...azure.filter((element) => !own.some((mine) => nameOf(mine) === nameOf(element)))];
  // An empty list is left out of the body, as the Go field's `omitempty` leaves it out.
  if (merged.length > 0) setKey(parent, collection, merged);
  else delete parent[collection];
  return { body: out };
}

/** A live value the operator's Go type cannot take: its JSON decoding fails, and so does the reconcile. */
class NotTheGoType extends Error {}

/**
 * The name the operator's merge compares: a nil name reads as reflection's text for an invalid value, so
 * two unnamed elements are the same to it.
 */
function nameOf(element: unknown): string {
  const name = isObject(element) ? element.name : undefined;
  return typeof name === 'string' ? name : '<invalid Value>';
}

/**
 * What of `value` the Go type `element` keeps through JSON: its fields matched by JSON name exactly or else
 * without regard to case (a later key overwriting an earlier one, as Go's decoder does), written with the
 * type's own spelling; a `null` or an empty list or map left out, as a nil pointer, list or map is.
 */
function keptOf(value: unknown, element: LiveElement, path: string): Record<string, unknown> {
  // A null element of a list of structs decodes as the zero struct.
  if (value === null) return {};
  if (!isObject(value)) throw new NotTheGoType(`${path}: Azure's value is not an object`);
  const names = Object.keys(element);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = names.includes(key) ? key : names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (name === undefined) continue;
    const below = element[name];
    const kept =
      inner === null || below === undefined ? undefined : fieldKept(inner, below, `${path}.${name}`);
    if (kept === undefined) delete out[name];
    else setKey(out, name, kept);
  }
  return out;
}

function fieldKept(value: unknown, below: LiveElement | null, path: string): unknown {
  if (below === null) {
    if (Array.isArray(value)) return value.length > 0 ? structuredClone(value) : undefined;
    if (isObject(value)) return Object.keys(value).length > 0 ? structuredClone(value) : undefined;
    return value;
  }
  if (Array.isArray(value)) {
    const list = value.map((e, i) => keptOf(e, below, `${path}[${i}]`));
    return list.length > 0 ? list : undefined;
  }
  return keptOf(value, below, path);
}
