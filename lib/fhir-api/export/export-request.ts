import { ApiError } from "@/lib/http";
import { SERVED_TYPES } from "../served-types";

/** The `_outputFormat` values the Bulk Data IG asks servers to accept for ndjson; the files are application/fhir+ndjson. */
export const NDJSON_FORMATS: readonly string[] = ["application/fhir+ndjson", "application/ndjson", "ndjson"];
export const FHIR_NDJSON = "application/fhir+ndjson";

/**
 * The one Group served: every subject sharing records with the application now, in the key's environment (a
 * sandbox key's Group is its sandbox subjects, a live key's its live subjects).
 */
export const CONSENTED_GROUP_ID = "consented";

/** What a kick-off asks for, once checked. */
export type ExportRequest = { types: string[]; since: Date | null };

/**
 * Checks a kick-off's headers and parameters (Bulk Data Access IG v2): `Prefer: respond-async` is required,
 * `_outputFormat` must name ndjson, `_type` holds served types (comma-separated, repeatable), `_since` an instant
 * with a time zone. Anything else is 400; parameters the IG leaves optional that are not supported
 * (`_typeFilter`, `_elements`, `patient`, `includeAssociatedData`) are refused rather than silently ignored.
 */
export function parseExportRequest(params: URLSearchParams, prefer: string | null): ExportRequest {
  const preferences = (prefer ?? "").split(",").map((part) => part.trim().toLowerCase());
  if (!preferences.includes("respond-async")) throw new ApiError("invalid_request", "A bulk export is asynchronous: send the header Prefer: respond-async.");
  for (const name of params.keys()) {
    if (!["_type", "_since", "_outputFormat"].includes(name)) throw new ApiError("invalid_query", `The export parameter ${name} is not supported (supported: _type, _since, _outputFormat).`);
  }
  const formats = params.getAll("_outputFormat");
  for (const format of formats) {
    if (!NDJSON_FORMATS.includes(format)) throw new ApiError("invalid_query", `_outputFormat ${format} is not supported; use ${NDJSON_FORMATS.join(", ")}.`);
  }
  const requested = params.getAll("_type").flatMap((value) => value.split(",")).map((type) => type.trim()).filter((type) => type !== "");
  for (const type of requested) {
    if (!SERVED_TYPES.includes(type)) throw new ApiError("invalid_query", `_type ${type} is not a type this server exports (${SERVED_TYPES.join(", ")}).`);
  }
  const types = requested.length > 0 ? SERVED_TYPES.filter((type) => requested.includes(type)) : [...SERVED_TYPES];
  const sinceValues = params.getAll("_since");
  if (sinceValues.length > 1) throw new ApiError("invalid_query", "_since is given once.");
  let since: Date | null = null;
  if (sinceValues.length === 1) {
    const value = sinceValues[0]!;
    // An instant: a date and time with seconds and a zone, as FHIR's instant type (2026-11-01T00:00:00Z).
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) {
      throw new ApiError("invalid_query", `_since must be a FHIR instant with a time zone (2026-11-01T00:00:00Z), not ${value}.`);
    }
    since = new Date(value);
  }
  return { types, since };
}
