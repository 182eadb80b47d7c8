import { createHash } from "node:crypto";
import { processState } from "@/lib/process-state";

/**
 * JSON with object keys sorted at every depth, so equal content always serializes, and hashes, the same. Written
 * out by hand rather than through a JSON.stringify replacer (which rebuilt every object to sort it): every stored
 * record's hash is this text's, so the output is byte for byte what that replacer gave, including its one quirk,
 * that keys which are array indexes come first in numeric order (an object rebuilt by Object.fromEntries orders
 * them so).
 */
export function canonicalJson(value: unknown): string {
  return serialize(value) as string;
}

export function contentHash(value: unknown): string {
  return hashOf(canonicalJson(value));
}

/** The canonical JSON of `value` and its content hash: the text doubles as what is written, so it is built once. */
export function hashedJson(value: unknown): { json: string; hash: string } {
  const json = canonicalJson(value);
  return { json, hash: hashOf(json) };
}

function hashOf(json: string): string {
  return createHash("sha256").update(json).digest("hex");
}

/** JSON.stringify's rules (toJSON first; undefined, functions and symbols skipped in objects, null in arrays). */
function serialize(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === "function") return serialize(withJson.toJSON());
  if (Array.isArray(value)) {
    let out = "[";
    for (let index = 0; index < value.length; index++) out += `${index === 0 ? "" : ","}${serialize(value[index]) ?? "null"}`;
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  let out = "";
  for (const key of sortedKeys(object)) {
    const inner = serialize(object[key]);
    if (inner === undefined) continue;
    out += `${out === "" ? "" : ","}${quotedKey(key)}:${inner}`;
  }
  return `{${out}}`;
}

// Records repeat a few dozen keys millions of times over an import: each is quoted once. The cache is bounded, as
// data may also carry keys of its own.
const quotedKeys = processState("records.quoted-keys", () => new Map<string, string>());
const MAX_QUOTED_KEYS = 10_000;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(key, quoted);
  }
  return quoted;
}

const MAX_INDEX = 2 ** 32 - 2;
// Most keys start with a letter: the character test spares them the pattern.
const isIndex = (key: string) => key.charCodeAt(0) <= 57 && /^(?:0|[1-9]\d*)$/.test(key) && Number(key) <= MAX_INDEX;

/** Object.keys lists index keys first, ascending; the others are sorted by UTF-16 code units. */
function sortedKeys(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object);
  let indexes = 0;
  while (indexes < keys.length && isIndex(keys[indexes]!)) indexes++;
  if (indexes === 0) return keys.sort();
  return [...keys.slice(0, indexes), ...keys.slice(indexes).sort()];
}
