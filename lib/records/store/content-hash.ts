import { sha256Hex } from "@/lib/sha256";

/**
 * JSON with object keys sorted at every depth, so equal content always serializes, and hashes, the same. Every
 * stored record's hash is this text's, so the output is byte for byte what JSON.stringify gave with a replacer that
 * rebuilt each object with sorted keys, including that replacer's one quirk: keys which are array indexes come
 * first in numeric order (an object rebuilt by Object.fromEntries orders them so).
 *
 * Written by JSON.stringify itself, over the value with its keys in that order: objects whose keys already are
 * (most of a normalized record) are used as they are, the others copied in order. Serializing by hand instead
 * built each record as a tree of short strings that writing it out then had to flatten.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(inCanonicalOrder(value)) as string;
}

export function contentHash(value: unknown): string {
  return hashOf(canonicalJson(value));
}

/** The canonical JSON of `value` and its content hash: the text doubles as what is written, so it is built once. */
export function hashedJson(value: unknown): { json: string; hash: string } {
  const json = canonicalJson(value);
  return { json, hash: hashOf(json) };
}

/** The content hash of a value's canonical JSON, given that text. */
export function hashOf(json: string): string {
  return sha256Hex(json);
}

/**
 * `value` with every object's keys in canonical order: the value itself where they already are, else a copy. What
 * JSON.stringify would call toJSON for is replaced by toJSON's result first (a copy would have lost the method).
 */
function inCanonicalOrder(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === "function") return inCanonicalOrder(withJson.toJSON());
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const ordered = inCanonicalOrder(item);
      if (copy === undefined && ordered !== item) copy = value.slice(0, index);
      if (copy !== undefined) copy.push(ordered);
    }
    return copy ?? value;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let inOrder = true;
  let children: unknown[] | undefined;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    // Object.keys lists index keys first, ascending, as the canonical order does; the others must ascend.
    if (inOrder && (key === "__proto__" || (index > 0 && keys[index - 1]! >= key && !isIndex(key)))) inOrder = false;
    const child = object[key];
    const ordered = inCanonicalOrder(child);
    if (children === undefined && ordered !== child) children = keys.slice(0, index).map((earlier) => object[earlier]);
    if (children !== undefined) children.push(ordered);
  }
  if (inOrder && children === undefined) return value;
  const order = inOrder ? null : sortedOrder(keys);
  const copy: Record<string, unknown> = {};
  for (let position = 0; position < keys.length; position++) {
    const index = order === null ? position : order[position]!;
    const key = keys[index]!;
    const child = children === undefined ? object[key] : children[index];
    // Index keys are an object's elements, always listed first and ascending, whatever order they are added in.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: child, enumerable: true, writable: true, configurable: true });
    else copy[key] = child;
  }
  return copy;
}

/**
 * The positions of `keys` in ascending order (by UTF-16 code units): an insertion sort, as a record's objects have
 * a handful of keys each and Array.prototype.sort with a comparator allocated more than the copies themselves.
 */
function sortedOrder(keys: readonly string[]): number[] {
  const order: number[] = [];
  for (let index = 0; index < keys.length; index++) {
    let at = index;
    order.push(index);
    for (; at > 0 && keys[order[at - 1]!]! > keys[index]!; at--) order[at] = order[at - 1]!;
    order[at] = index;
  }
  return order;
}

const MAX_INDEX = 2 ** 32 - 2;
// Most keys start with a letter: the character test spares them the pattern.
const isIndex = (key: string) => key.charCodeAt(0) <= 57 && /^(?:0|[1-9]\d*)$/.test(key) && Number(key) <= MAX_INDEX;
