import { isObject, type Json } from "./read";

/**
 * Template syntax a source's export pipeline left unfilled: `{{value}}`, `${x}`, `#{x}`, `%{x}`, `<%= x %>`,
 * `{% x %}`, and `{entry.value}`-style single braces. Such text is not a clinical value, so it is removed before any
 * normalizer reads the resource and the record says where it was.
 */
const TEMPLATE_TOKEN = /\{\{\{?[^{}]*\}?\}\}|[$#%]\{[^{}]*\}|<%[^%]*%>|\{%[^%]*%\}/g;
// Single braces around a name are also UCUM annotations (`{score}`, `{tbl}`), so in unit and code fields they count
// only when they hold a dotted path, which no annotation does.
const SINGLE_BRACE_TOKEN = /\{\s*[A-Za-z_$][^{}]*\}/g;
const DOTTED_PATH_TOKEN = /\{\s*[A-Za-z_$][\w$]*(?:\.[\w$]+|\[\d+\])+\s*\}/g;
const UNIT_OR_CODE_FIELDS = new Set(["unit", "code"]);
// The resource's type and ids are how it is found and referenced, never clinical values, so they are left as sent.
const IDENTITY_FIELDS = new Set(["resourceType", "id"]);

/** True when the text is nothing but template placeholders (and the spaces or punctuation between them). */
export function isUnfilledTemplate(text: string, field: string): boolean {
  const singleBraces = UNIT_OR_CODE_FIELDS.has(field) ? DOTTED_PATH_TOKEN : SINGLE_BRACE_TOKEN;
  const rest = text.replace(TEMPLATE_TOKEN, "\u0000").replace(singleBraces, "\u0000");
  return rest.includes("\u0000") && /^[\s\p{P}\u0000]*$/u.test(rest);
}

export type PlaceholderScan = { resource: Json; paths: string[] };

/** The resource without its placeholder strings (the original object when it has none), and where they were. */
export function withoutPlaceholders(resource: Json): PlaceholderScan {
  const paths: string[] = [];
  const cleaned = clean(resource, "", "", paths);
  return { resource: cleaned as Json, paths };
}

const REMOVED = Symbol("removed");

function clean(value: unknown, field: string, path: string, paths: string[]): unknown {
  if (typeof value === "string") {
    if (IDENTITY_FIELDS.has(field) || !isUnfilledTemplate(value, field)) return value;
    paths.push(path);
    return REMOVED;
  }
  if (Array.isArray(value)) {
    const items = value.map((item, index) => clean(item, field, `${path}[${index}]`, paths));
    return items.every((item, index) => item === value[index]) ? value : items.filter((item) => item !== REMOVED);
  }
  if (isObject(value)) {
    const fields = Object.entries(value).map(
      ([key, inner]) => [key, clean(inner, key, path ? `${path}.${key}` : key, paths)] as const,
    );
    if (fields.every(([key, inner]) => inner === value[key])) return value;
    return Object.fromEntries(fields.filter(([, inner]) => inner !== REMOVED));
  }
  return value;
}
