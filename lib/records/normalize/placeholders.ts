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
  const cleaned = clean(resource, "", [], paths);
  return { resource: cleaned as Json, paths };
}

const REMOVED = Symbol("removed");

/**
 * Whether the text may be an unfilled template: every placeholder form has a `{` or `<%`, and only a NUL (the
 * marker isUnfilledTemplate substitutes) could otherwise pass its test. Most values of a resource have neither, so
 * they skip the patterns.
 */
const mayBePlaceholder = (text: string) => text.includes("{") || text.includes("<%") || text.includes("\u0000");

// The path of a value is kept as the keys and indexes leading to it and written out (`key.key[index]`) only for a
// value that is removed: building every value's path, or even each step of it, as a string cost more than the scan.
const pathText = (path: readonly (string | number)[]) =>
  path.map((step, index) => (typeof step === "number" ? `[${step}]` : index === 0 ? step : `.${step}`)).join("");

function clean(value: unknown, field: string, path: (string | number)[], paths: string[]): unknown {
  if (typeof value === "string") {
    if (IDENTITY_FIELDS.has(field) || !mayBePlaceholder(value) || !isUnfilledTemplate(value, field)) return value;
    paths.push(pathText(path));
    return REMOVED;
  }
  if (Array.isArray(value)) {
    let items: unknown[] | null = null;
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const item = clean(value[index], field, path, paths);
      path.pop();
      if (item !== value[index]) items ??= value.slice(0, index);
      if (items) items.push(item);
    }
    return items ? items.filter((item) => item !== REMOVED) : value;
  }
  if (isObject(value)) {
    let fields: [string, unknown][] | null = null;
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      path.push(key);
      const inner = clean(value[key], key, path, paths);
      path.pop();
      if (inner !== value[key]) fields ??= keys.slice(0, index).map((known) => [known, value[known]]);
      if (fields) fields.push([key, inner]);
    }
    return fields ? Object.fromEntries(fields.filter(([, inner]) => inner !== REMOVED)) : value;
  }
  return value;
}
