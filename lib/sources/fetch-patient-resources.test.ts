import type { FhirResource } from "fhir/r4";
import { describe, expect, it } from "vitest";
import { linkedCcdaBinaries, readSourceJson } from "./fetch-patient-resources";
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
