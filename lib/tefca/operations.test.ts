import { describe, expect, it } from "vitest";
import { validateFhirResource } from "@/test/fhir-validate";
import { demographicField } from "./demographics";
import { TEFCA_OPERATIONS } from "./operations";

describe("the TEFCA declarations' examples", () => {
  it.each(TEFCA_OPERATIONS.map((operation) => [operation.operationId, operation] as const))("%s: its examples are what its schemas accept", (_, operation) => {
    expect(operation.success.schema.safeParse(operation.success.example!()).error).toBeUndefined();
    if (operation.body) expect(operation.body.safeParse(operation.bodyExample!()).error).toBeUndefined();
  });

  it("the export example is a valid FHIR R4 Bundle", () => {
    const exportOperation = TEFCA_OPERATIONS.find((operation) => operation.operationId === "exportTefcaRecords")!;
    expect(validateFhirResource(exportOperation.success.example!()).errors).toEqual([]);
  }, 60_000);
});

describe("demographicField", () => {
  it.each([
    [{ patientId: "x", categories: ["labs"] }, null],
    [{ name: "Rosa" }, "name"],
    [{ patient: { birth_date: "1968-03-21" } }, "patient.birth_date"],
    [{ documentIds: ["doc_1"], subjects: [{ Phone: "555" }] }, "subjects.Phone"],
    [{ "date-of-birth": "1968" }, "date-of-birth"],
    [["not", "an", "object"], null],
  ])("%j → %s", (body, field) => {
    expect(demographicField(body)).toBe(field);
  });
});
