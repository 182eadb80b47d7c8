import { describe, expect, it } from "vitest";
import { disclosureHistory, fhirTypeCategories, type IssuedCredential, type ReadGroup } from "./disclosure-history";

const PAGE = "GET /users/{subject}/records/{category}";
const CHANGES = "GET /users/{subject}/records/{category}/changes";
const WHOLE = "GET /users/{subject}/records";

const credential = (id: string, createdAt: string, purpose = "Summarize recent labs"): IssuedCredential => ({
  id,
  purpose,
  categories: ["labs"],
  createdAt: new Date(createdAt),
  expiresAt: new Date(new Date(createdAt).getTime() + 3_600_000),
  revokedAt: null,
});

describe("the patient's disclosure history", () => {
  it("per day, newest first: requests, whole-record reads, reads per category (most read first), and the agents' share", () => {
    const groups: ReadGroup[] = [
      { day: "2026-12-01", route: PAGE, category: "labs", agentCredentialId: null, count: 2 },
      { day: "2026-12-01", route: CHANGES, category: "labs", agentCredentialId: null, count: 1 },
      { day: "2026-12-01", route: PAGE, category: "allergies", agentCredentialId: null, count: 4 },
      { day: "2026-12-03", route: WHOLE, category: null, agentCredentialId: null, count: 1 },
      { day: "2026-12-03", route: PAGE, category: "labs", agentCredentialId: "cred_a", count: 3 },
    ];
    const history = disclosureHistory(groups, [credential("cred_a", "2026-12-03T10:00:00Z")]);
    expect(history.requests).toBe(11);
    expect(history.days).toEqual([
      { day: "2026-12-03", requests: 4, wholeRecordReads: 1, categories: [{ category: "labs", reads: 3 }], agentRequests: 3 },
      { day: "2026-12-01", requests: 7, wholeRecordReads: 0, categories: [{ category: "allergies", reads: 4 }, { category: "labs", reads: 3 }], agentRequests: 0 },
    ]);
    expect(history.agents).toEqual([
      {
        credentialId: "cred_a",
        purpose: "Summarize recent labs",
        categories: ["labs"],
        issuedAt: new Date("2026-12-03T10:00:00Z"),
        expiresAt: new Date("2026-12-03T11:00:00Z"),
        revokedAt: null,
        requests: 3,
        wholeRecordReads: 0,
        reads: [{ category: "labs", reads: 3 }],
      },
    ]);
  });

  it("lists every credential issued, newest first, also one that read nothing; one the log names but no longer held has no purpose", () => {
    const history = disclosureHistory(
      [{ day: "2026-12-02", route: WHOLE, category: null, agentCredentialId: "cred_gone", count: 2 }],
      [credential("cred_old", "2026-12-01T00:00:00Z", "Old"), credential("cred_new", "2026-12-02T00:00:00Z", "New")],
    );
    expect(history.agents.map((agent) => [agent.credentialId, agent.purpose, agent.requests, agent.wholeRecordReads])).toEqual([
      ["cred_new", "New", 0, 0],
      ["cred_old", "Old", 0, 0],
      ["cred_gone", null, 2, 2],
    ]);
  });

  it("counts only record reads: another operation, a category read without a category, or an empty group is left out", () => {
    const history = disclosureHistory(
      [
        { day: "2026-12-01", route: "POST /agent-credentials", category: null, agentCredentialId: null, count: 5 },
        { day: "2026-12-01", route: PAGE, category: null, agentCredentialId: null, count: 1 },
        { day: "2026-12-01", route: PAGE, category: "labs", agentCredentialId: null, count: 0 },
      ],
      [],
    );
    expect(history).toEqual({ requests: 0, days: [], agents: [] });
  });

  it("counts the FHIR view's reads (issue 52): $everything as the whole record, a type as each category of it, a context type as a read of none", () => {
    expect(fhirTypeCategories("Observation")).toEqual(["labs", "vitals"]);
    expect(fhirTypeCategories("DiagnosticReport")).toEqual(["labs", "documents"]);
    expect(fhirTypeCategories("Patient")).toEqual(["demographics"]);
    expect(fhirTypeCategories("Encounter")).toEqual([]);
    const history = disclosureHistory(
      [
        { day: "2026-12-01", route: "GET /fhir/Patient/{subject}/$everything", category: null, agentCredentialId: null, count: 1 },
        { day: "2026-12-01", route: "GET /fhir/{resourceType}", category: "Observation", agentCredentialId: "cred_a", count: 2 },
        { day: "2026-12-01", route: "GET /fhir/{resourceType}/{id}", category: "Condition", agentCredentialId: null, count: 1 },
        { day: "2026-12-01", route: "GET /fhir/Patient/{subject}", category: "Patient", agentCredentialId: null, count: 1 },
        { day: "2026-12-01", route: "GET /fhir/{resourceType}", category: "Practitioner", agentCredentialId: null, count: 3 },
        { day: "2026-12-01", route: "GET /fhir/metadata", category: null, agentCredentialId: null, count: 4 },
        { day: "2026-12-01", route: "GET /fhir/$export-status/{exportId}", category: null, agentCredentialId: null, count: 4 },
      ],
      [],
    );
    expect(history.requests).toBe(8);
    expect(history.days).toEqual([
      {
        day: "2026-12-01",
        requests: 8,
        wholeRecordReads: 1,
        categories: [
          { category: "labs", reads: 2 },
          { category: "vitals", reads: 2 },
          { category: "conditions", reads: 1 },
          { category: "demographics", reads: 1 },
        ],
        agentRequests: 2,
      },
    ]);
    expect(history.agents).toEqual([expect.objectContaining({ credentialId: "cred_a", requests: 2, reads: [{ category: "labs", reads: 2 }, { category: "vitals", reads: 2 }] })]);
  });
});
