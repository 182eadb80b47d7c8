import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_SCOPE, TEST_SOURCE } from "@/test/normalizer";
import type { Category, NormalizedRecord } from "../schemas";
import { normalizeBundle } from "./resources";
import type { NormalizationResult } from "./types";

// Each defect class of issue 23, tested on the public examples in fixtures/fidelity (see SOURCES.md there).
const FIXTURES = path.resolve(__dirname, "../../../fixtures/fidelity");

function normalizeFixture(name: string): NormalizationResult {
  return normalizeBundle(JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8")), TEST_SOURCE, TEST_SCOPE);
}

function recordOf<C extends Category>(result: NormalizationResult, category: C, resourceId: string): NormalizedRecord<C> {
  const fact = result.facts.find((item) => item.category === category && item.record.sources[0]?.resourceId === resourceId);
  if (!fact) throw new Error(`no ${category} record from ${resourceId}; skipped: ${JSON.stringify(result.skipped)}`);
  return fact.record as NormalizedRecord<C>;
}

const usCore = normalizeFixture("us-core-examples.json");

describe("class 2: patient sex in US Core 6+", () => {
  it("keeps the individual-sex extension as sex, apart from gender and birth sex (US Core patient-example)", () => {
    const patient = recordOf(usCore, "demographics", "example");
    expect(patient.gender).toBeNull();
    expect(patient.sex).toEqual({
      text: "Female (finding)",
      codings: [{ system: "http://snomed.info/sct", code: "248152002", display: "Female (finding)" }],
    });
    expect(patient.birthSex).toBeNull();
    expect(patient.genderIdentity).toBeNull();
  });
});
