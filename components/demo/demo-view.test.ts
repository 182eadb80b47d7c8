import { describe, expect, it } from "vitest";
import { buildHealthRecord, patientScenarios, patientScenarioByPatientId } from "@/lib/demo";
import { CATEGORIES } from "@/lib/records";
import { SCENARIOS } from "@/lib/sandbox";
import { behaviorNote, categoryViews, demoMcpConfig, patientView, RECORDS_SHOWN, scenarioOutcome } from "./demo-view";

const scenario = (id: string) => {
  const found = patientScenarios().find((candidate) => candidate.id === id);
  if (!found) throw new Error(id);
  return found;
};

describe("the demo pages' view of the keyless demo", () => {
  it("shows each category's records as GET /users/{subject}/records serves them, capped, with the full count", () => {
    const baseline = scenario("baseline-adult");
    const served = buildHealthRecord(baseline, CATEGORIES);
    const views = categoryViews(baseline);
    expect(views.map((view) => view.category)).toEqual([...CATEGORIES]);
    for (const view of views) {
      expect(view.total).toBe(served.sections[view.category]?.records.length);
      expect(view.records).toEqual(served.sections[view.category]?.records.slice(0, RECORDS_SHOWN));
      expect(view.json).toBe(`/demo/v1/users/${baseline.subject}/records?categories=${view.category}`);
    }
    const long = categoryViews(scenario("long-history")).find((view) => view.category === "labs")!;
    expect(long.total).toBeGreaterThan(RECORDS_SHOWN);
    expect(long.records).toHaveLength(RECORDS_SHOWN);
  });

  it("withholds the categories outside a partial consent, as the API does", () => {
    const partial = scenario("consent-partial");
    expect(categoryViews(partial).map((view) => view.category)).toEqual(["medications", "allergies"]);
    expect(patientView(partial).withheld.map((entry) => entry.category)).not.toContain("medications");
    expect(patientView(partial).withheld).toHaveLength(CATEGORIES.length - 2);
  });

  it("names the patient and links the raw JSON and FHIR answers", () => {
    const view = patientView(scenario("baseline-adult"));
    expect(view.name).not.toMatch(/patient$/);
    expect(view.page).toBe("/demo/patients/baseline-adult-patient");
    expect(view.json[0]?.href).toBe(`/demo/v1/users/${view.subject}/records`);
    expect(view.fhir.map((link) => link.href)).toEqual(["/demo/v1/fhir/Patient/baseline-adult-patient", "/demo/v1/fhir/Bundle/baseline-adult-bundle"]);
    expect(patientScenarioByPatientId(view.patientId)?.id).toBe("baseline-adult");
  });

  it("says what each behavior makes the API answer, and what a session scenario ends with", () => {
    expect(behaviorNote(scenario("consent-revoked"))).toContain("410 consent_inactive");
    expect(behaviorNote(scenario("consent-partial"))).toContain("403 consent_scope_exceeded");
    expect(behaviorNote(scenario("rate-limited"))).toContain("429 rate_limited in every other 2-second slot");
    expect(behaviorNote(scenario("baseline-adult"))).toBeNull();
    const failed = SCENARIOS.find((candidate) => candidate.id === "connect-failed")!;
    expect(scenarioOutcome(failed)).toContain("failure_code source_unavailable");
    expect(scenarioOutcome(scenario("baseline-adult"))).toBeNull();
  });

  it("configures an MCP client for the demo server at this deployment", () => {
    expect(JSON.parse(demoMcpConfig("https://chartkey.example"))).toEqual({ mcpServers: { "chartkey-demo": { type: "http", url: "https://chartkey.example/demo/v1/mcp" } } });
  });
});
