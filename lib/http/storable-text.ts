import { ApiError } from "./api-error";

/**
 * Characters PostgreSQL cannot store in text or jsonb: NUL (text refuses the byte, jsonb the `\u0000` escape) and
 * UTF-16 surrogates standing alone (a string JSON.parse makes from `"\ud800"`). A lone surrogate has no UTF-8
 * encoding: pg writes it as U+FFFD, silently changing the stored text, and jsonb refuses its escape. With the `u`
 * flag a surrogate pair is one code point, so `\p{Cs}` matches only the lone halves.
 */
const UNSTORABLE = /[\0\p{Cs}]/u;

/** The first character of `text` PostgreSQL cannot store, as `U+XXXX`, or null when every character can be stored. */
export function unstorableCharacter(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (!found) return null;
  return `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Where in a value a character that cannot be stored is: the field path (empty at the root) and the character. */
export type UnstorableText = { path: (string | number)[]; character: string; inName: boolean };

/**
 * The first string in `value` (a JSON value, or what a schema made of one), or field name of one of its objects,
 * holding a character PostgreSQL cannot store; null when there is none. Walks arrays and plain objects only: a
 * schema's other outputs (a Date, a URL) hold no client text of their own. Bodies are already bounded in depth
 * (lib/http/read-json-body.ts), so the recursion is too.
 */
export function findUnstorableText(value: unknown, path: (string | number)[] = []): UnstorableText | null {
  if (typeof value === "string") {
    const character = unstorableCharacter(value);
    return character ? { path, character, inName: false } : null;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findUnstorableText(value[index], [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (!isPlainObject(value)) return null;
  for (const key of Object.keys(value)) {
    const character = unstorableCharacter(key);
    if (character) return { path, character, inName: true };
    const found = findUnstorableText(value[key], [...path, key]);
    if (found) return found;
  }
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Refuses a request whose body, query or path holds text PostgreSQL cannot store, before anything reads or writes
 * with it: 400 `invalid_request` naming the field for a body or query, and 404 `not_found` for a path (a path value
 * holding such a character names nothing that could exist). `value` is what the request's schema parsed, so every
 * field an operation is handed is checked, whichever field a future schema adds.
 */
export function assertStorable(value: unknown, where: "body" | "query" | "path"): void {
  const found = findUnstorableText(value);
  if (!found) return;
  const field = found.path.map(String).join(".");
  const what = unstorableWhat(found, where, field);
  if (where === "path") {
    throw new ApiError("not_found", `No resource at this path: ${what.charAt(0).toLowerCase()}${what.slice(1)} contains a character that cannot be stored (${found.character}).`);
  }
  throw new ApiError("invalid_request", `${what} contains a character that cannot be stored (${found.character}).`);
}

function unstorableWhat(found: UnstorableText, where: "body" | "query" | "path", field: string): string {
  const place = where === "query" ? "query parameter" : where === "path" ? "path parameter" : "field";
  if (found.inName) return field ? `A field name in ${field}` : `A ${place} name`;
  if (!field) return `The ${where}`;
  return where === "body" ? field : `The ${place} ${field}`;
}

/** Refuses a request header we keep (`Idempotency-Key`) holding text PostgreSQL cannot store: 400 `invalid_request`. */
export function assertStorableHeader(name: string, value: string): void {
  const character = unstorableCharacter(value);
  if (character) throw new ApiError("invalid_request", `${name} contains a character that cannot be stored (${character}).`);
}
