import type { FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { contextIdBatches, linkedCcdaBinaries, readSourceJson } from "./fetch-patient-resources";
import { SourceError } from "./source-error";

describe("readSourceJson", () => {
  const nested = (levels: number) => '{"extension":['.repeat(levels) + "1" + "]}".repeat(levels);

  const answer = (text: string) => ({ status: 200, text });

  it("reads a health system's JSON, however its resources nest in practice", () => {
    expect(readSourceJson(answer('{"resourceType":"Bundle","entry":[{"resource":{"contained":[{"a":[1]}]}}]}'), "The search")).toMatchObject({ resourceType: "Bundle" });
    expect(readSourceJson(answer(nested(30)), "The search")).toBeTruthy();
  });

  it("refuses JSON nested deeper than the normalizer may walk, and text that is not JSON, as invalid_response", () => {
    for (const body of [nested(50_000), "<html>"]) {
      const failure = (() => {
        try {
          return readSourceJson(answer(body), "The search");
        } catch (error) {
          return error;
        }
      })();
      expect(failure).toBeInstanceOf(SourceError);
      expect((failure as SourceError).code).toBe("invalid_response");
    }
  });
});

describe("linkedCcdaBinaries", () => {
  const base = "https://fhir.example.org/r4";
  const documentReference = (id: string, attachments: Record<string, string>[]): FhirResource =>
    ({ resourceType: "DocumentReference", id, status: "current", content: attachments.map((attachment) => ({ attachment })) }) as FhirResource;

  it("names the Binaries a DocumentReference links as C-CDA on this FHIR base, relative or absolute, once each", () => {
    const resources = [
      documentReference("ccd", [{ contentType: "application/xml", url: "Binary/ccd-1" }]),
      documentReference("summary", [{ contentType: "text/xml; charset=utf-8", url: `${base}/Binary/summary-1` }]),
      documentReference("again", [{ contentType: "application/xml", url: "Binary/ccd-1" }]),
    ];
    expect(linkedCcdaBinaries(resources, base)).toEqual([
      { binaryId: "ccd-1", documentReference: "DocumentReference/ccd" },
      { binaryId: "summary-1", documentReference: "DocumentReference/summary" },
    ]);
  });

  it("follows no link to another server, no attachment sent inline, and nothing that is not XML", () => {
    const resources = [
      documentReference("elsewhere", [{ contentType: "application/xml", url: "https://other.example.org/r4/Binary/x" }]),
      documentReference("prefix", [{ contentType: "application/xml", url: `${base}-evil/Binary/x` }]),
      documentReference("inline", [{ contentType: "application/xml", url: "Binary/x", data: "PENsaW5pY2FsRG9jdW1lbnQ+" }]),
      documentReference("pdf", [{ contentType: "application/pdf", url: "Binary/x" }]),
      documentReference("not-binary", [{ contentType: "application/xml", url: "DocumentReference/x" }]),
      { resourceType: "Binary", id: "x", contentType: "application/xml" } as FhirResource,
    ];
    expect(linkedCcdaBinaries(resources, base)).toEqual([]);
  });
});

describe("contextIdBatches", () => {
  const ids = (count: number, length: number) => Array.from({ length: count }, (_, index) => String(index).padStart(length, "x"));

  it("puts as many ids in one _id search as about 2,000 characters hold, in order, each id once", () => {
    const epic = ids(45, 100);
    const batches = contextIdBatches(epic);
    expect(batches.map((batch) => batch.length)).toEqual([19, 19, 7]);
    expect(batches.flat()).toEqual(epic);
    for (const batch of batches) expect(batch.join(",").length).toBeLessThanOrEqual(2_000);
    expect(contextIdBatches(ids(120, 39)).map((batch) => batch.length)).toEqual([50, 50, 20]);
  });

  it("caps a search at 100 ids however short, and gives an id longer than the limit a search of its own", () => {
    expect(contextIdBatches(ids(250, 3)).map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(contextIdBatches(["a", "y".repeat(2_500), "b"])).toEqual([["a"], ["y".repeat(2_500)], ["b"]]);
    expect(contextIdBatches([])).toEqual([]);
  });
});
