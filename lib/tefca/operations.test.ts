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
    [{ a: { b: 1 }, c: [{ d: 2 }, { email: "x" }], name: "later" }, "c.email"],
  ])("%j → %s", (body, field) => {
    expect(demographicField(body)).toBe(field);
  });

  it("walks a value nested far deeper than any call stack without overflowing", () => {
    let deep: unknown = { dob: "1968" };
    for (let level = 0; level < 200_000; level++) deep = { a: deep };
    expect(demographicField(deep)).toBe(`${"a.".repeat(200_000)}dob`);
  });
});
