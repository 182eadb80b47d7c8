import { describe, expect, it } from "vitest";
import { SERVED_TYPES } from "../served-types";
import { parseExportRequest } from "./export-request";

const parse = (query: string, prefer: string | null = "respond-async") => parseExportRequest(new URLSearchParams(query), prefer);
const refusal = (query: string, prefer: string | null = "respond-async") => {
  try {
    parse(query, prefer);
  } catch (error) {
    return (error as { code: string }).code;
  }
  return "accepted";
};

describe("a bulk export kick-off's parameters (Bulk Data Access IG v2)", () => {
  it("requires Prefer: respond-async, among other preferences too", () => {
    expect(refusal("", null)).toBe("invalid_request");
    expect(refusal("", "return=minimal")).toBe("invalid_request");
    expect(refusal("", "handling=lenient, Respond-Async")).toBe("accepted");
  });

  it("accepts the three ndjson spellings of _outputFormat and nothing else", () => {
    for (const format of ["application/fhir+ndjson", "application/ndjson", "ndjson"]) expect(refusal(`_outputFormat=${encodeURIComponent(format)}`)).toBe("accepted");
    for (const format of ["application/json", "text/csv", "application/fhir+json"]) expect(refusal(`_outputFormat=${encodeURIComponent(format)}`)).toBe("invalid_query");
  });

  it("narrows to the served types _type names (comma-separated or repeated), in the served order; every type without it", () => {
    expect(parse("").types).toEqual([...SERVED_TYPES]);
    expect(parse("_type=Observation,Patient&_type=Encounter").types).toEqual(["Patient", "Observation", "Encounter"]);
    expect(refusal("_type=Observation,Spaceship")).toBe("invalid_query");
  });

  it("reads _since as a FHIR instant with a zone, once", () => {
    expect(parse("_since=2026-11-01T00:00:00Z").since).toEqual(new Date("2026-11-01T00:00:00Z"));
    expect(parse("_since=2026-11-01T02:00:00.5%2B02:00").since).toEqual(new Date("2026-11-01T00:00:00.5Z"));
    expect(parse("").since).toBeNull();
    for (const since of ["2026-11-01", "2026-11-01T00:00:00", "yesterday", "2026-13-45T00:00:00Z"]) expect(refusal(`_since=${encodeURIComponent(since)}`)).toBe("invalid_query");
    expect(refusal("_since=2026-11-01T00:00:00Z&_since=2026-11-02T00:00:00Z")).toBe("invalid_query");
  });

  it("refuses parameters it does not support rather than ignoring them", () => {
    for (const name of ["_typeFilter", "_elements", "patient", "includeAssociatedData"]) expect(refusal(`${name}=x`)).toBe("invalid_query");
  });
});
