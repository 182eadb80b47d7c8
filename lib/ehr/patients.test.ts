import { describe, expect, it } from "vitest";
import { ehrPatients, findEhrPatient, simulatedEhrPatientKey } from "./patients";

describe("EHR patients and simulated instances", () => {
  it("an instance key names its manifest patient with its own key; the page lists only manifest patients", () => {
    const base = findEhrPatient("riverbend-health", "baseline-adult.primary")!;
    const key = simulatedEhrPatientKey("baseline-adult", "primary", "pat_abc123");
    expect(findEhrPatient("riverbend-health", key)).toEqual({ ...base, patientKey: "baseline-adult.primary.pat_abc123" });
    expect(ehrPatients("riverbend-health").map((patient) => patient.patientKey)).not.toContain(key);
  });

  it("refuses malformed keys and an instance at the wrong provider", () => {
    for (const key of ["baseline-adult.primary.", "baseline-adult.primary.a.b", "baseline-adult.primary.a b", "baseline-adult"]) {
      expect(findEhrPatient("riverbend-health", key)).toBeUndefined();
    }
    expect(findEhrPatient("lakeshore-health", "baseline-adult.primary.pat_abc123")).toBeUndefined();
  });
});
