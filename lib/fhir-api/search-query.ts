import { ApiError } from "@/lib/http";
import { hasDateParam, INCLUDE_FIELDS, TOKEN_PARAMS, type TokenPath } from "./served-types";

/** One side of a date range: `ge`/`gt`/`le`/`lt` an instant. */
export type DateBound = { op: "ge" | "gt" | "le" | "lt"; at: Date };
export type TokenValue = { system: string | null; code: string };
export type TokenFilter = { name: string; path: TokenPath; values: TokenValue[] };

/** A search as the store runs it; `applied` is what the self link repeats (the parameters that were applied). */
export type SearchQuery = {
  patient: string | null;
  ids: string[] | null;
  lastUpdated: DateBound[];
  date: DateBound[];
  tokens: TokenFilter[];
  count: number;
  include: string[];
  cursor: string | null;
  applied: [string, string][];
};

export const DEFAULT_COUNT = 50;
/** A larger `_count` is served as this many, as FHIR lets a server do. */
export const MAX_COUNT = 200;

const DATE = /^(eq|ne|gt|lt|ge|le|sa|eb|ap)?(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/**
 * The bounds a FHIR date parameter value gives (https://hl7.org/fhir/R4/search.html#date): a partial date is the
 * range it names, so `eq2023` is [2023-01-01, 2024-01-01), `ge2023-04` from April 2023, `lt2023-04-11` before that day.
 */
export function dateBounds(name: string, value: string): DateBound[] {
  const match = DATE.exec(value);
  if (!match) throw new ApiError("invalid_query", `${name} must be a FHIR date with an optional prefix (ge2023-01-01, lt2024).`);
  const [, prefix = "eq", year, month, day, hour, minute, second = "00", fraction = "", zone] = match;
  if (prefix === "ne" || prefix === "ap") throw new ApiError("invalid_query", `${name} does not support the ${prefix} prefix; use ge, gt, le, lt, eq, sa or eb.`);
  let start: Date;
  let end: Date;
  if (hour !== undefined) {
    start = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${zone ?? "Z"}`);
    end = new Date(start.getTime() + (fraction ? 1 : 1000));
  } else {
    const y = Number(year);
    const m = month === undefined ? 0 : Number(month) - 1;
    const d = day === undefined ? 1 : Number(day);
    start = new Date(Date.UTC(y, m, d));
    end = day !== undefined ? new Date(Date.UTC(y, m, d + 1)) : month !== undefined ? new Date(Date.UTC(y, m + 1, 1)) : new Date(Date.UTC(y + 1, 0, 1));
  }
  if (Number.isNaN(start.getTime())) throw new ApiError("invalid_query", `${name} is not a valid date.`);
  switch (prefix) {
    case "eq":
      return [
        { op: "ge", at: start },
        { op: "lt", at: end },
      ];
    case "gt":
    case "sa":
      return [{ op: "ge", at: end }];
    case "ge":
      return [{ op: "ge", at: start }];
    case "lt":
    case "eb":
      return [{ op: "lt", at: start }];
    default:
      return [{ op: "lt", at: end }];
  }
}

/** `system|code`, `|code` (no system), `code` (any system), comma-separated alternatives. */
export function tokenValues(value: string): TokenValue[] {
  return value
    .split(",")
    .filter((part) => part !== "")
    .map((part) => {
      const bar = part.indexOf("|");
      return bar < 0 ? { system: null, code: part } : { system: part.slice(0, bar), code: part.slice(bar + 1) };
    });
}

/** The `patient` parameter's subject: `u-X`, `u_X`, `Patient/u-X` or an absolute URL ending so. */
export function patientOf(value: string): string {
  const id = value.slice(value.lastIndexOf("/") + 1);
  return id.replace(/^u-/, "u_");
}

/**
 * Reads a search's parameters for `type`. Parameters the type does not support are ignored (FHIR's lenient
 * handling), so they are not in `applied`; a supported one with a value it cannot read is 400 `invalid_query`.
 */
export function searchQuery(type: string, params: URLSearchParams): SearchQuery {
  const query: SearchQuery = { patient: null, ids: null, lastUpdated: [], date: [], tokens: [], count: DEFAULT_COUNT, include: [], cursor: null, applied: [] };
  const tokens = TOKEN_PARAMS[type] ?? {};
  for (const [name, value] of params) {
    if (name === "patient" || name === "subject") {
      query.patient = patientOf(value);
    } else if (name === "_id") {
      query.ids = [...(query.ids ?? []), ...value.split(",").filter((id) => id !== "")];
    } else if (name === "_lastUpdated") {
      query.lastUpdated.push(...dateBounds(name, value));
    } else if (name === "date" && hasDateParam(type)) {
      query.date.push(...dateBounds(name, value));
    } else if (name in tokens) {
      const values = tokenValues(value);
      if (values.length === 0) throw new ApiError("invalid_query", `${name} needs a code.`);
      query.tokens.push({ name, path: tokens[name]!, values });
    } else if (name === "_count") {
      const count = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(count)) throw new ApiError("invalid_query", "_count must be a whole number.");
      query.count = Math.min(count, MAX_COUNT);
      continue;
    } else if (name === "_include") {
      const [source, param] = value.split(":");
      if (param === undefined || (source !== type && source !== "*") || (param !== "*" && !(param in INCLUDE_FIELDS))) {
        throw new ApiError("invalid_query", `_include ${value} is not supported; use ${type}:<parameter> with one of ${Object.keys(INCLUDE_FIELDS).join(", ")} or *.`);
      }
      query.include.push(param);
    } else if (name === "_cursor") {
      query.cursor = value;
      continue;
    } else {
      continue;
    }
    query.applied.push([name, value]);
  }
  return query;
}
