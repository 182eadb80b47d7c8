/**
 * Readers for untrusted FHIR JSON. The fhir4 types describe what a resource should look like; sources send what
 * they send, so normalizers read every field through these checks and never assume a shape.
 */
export type Json = { [key: string]: unknown };

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function object(value: unknown): Json | null {
  return isObject(value) ? value : null;
}

/** A non-blank string, else null. */
export function string(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

export function number(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

export function integer(value: unknown): number | null {
  return Number.isSafeInteger(value) ? (value as number) : null;
}

export function boolean(value: unknown): boolean | null {
  return typeof value === "boolean" ? value : null;
}

export function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.flatMap((item) => string(item) ?? []) : [];
}

/** A FHIR code, lowercased so statuses compare reliably. */
export function code(value: unknown): string | null {
  return string(value)?.trim().toLowerCase() ?? null;
}

/**
 * A copy of a string that is its own: V8 parses a JSON text's longer strings as slices of that text, so one id kept
 * from a search page keeps the whole page's text alive. What outlives its page (bookkeeping per resource) is copied.
 */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
