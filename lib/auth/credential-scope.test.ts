import { describe, expect, it } from "vitest";
import { declaredPlatformOperations } from "@/test/declared-operations";
import { assertCredentialCovers, type AgentAuth } from "./authenticate-agent";
import { AGENT_OPERATIONS, type AgentOperation } from "./schemas";

// A delegated credential's scope, without a database: the operation it was granted, its one subject, its receipt
// and its categories (lib/api/steps.ts asks assertCredentialCovers before any read runs), and which operations a
// credential may call at all.

const agent: AgentAuth = {
  kind: "agent",
  credentialId: "cred_1",
  purpose: "summarize medications",
  subjectId: "u_granted",
  receiptId: "rcpt_granted",
  categories: ["medications", "labs"],
  operations: ["get_category_records", "get_consent_receipt"],
  key: {
    kind: "key",
    apiKeyId: "key_1",
    environment: "sandbox",
    conformanceRunId: null,
    application: { id: "app_1", name: "App", status: "sandbox", productionEnabled: false, categoryAllowlist: ["medications", "labs"], syncMode: "one_time" },
  },
};

function refusal(operation: AgentOperation, asked: Parameters<typeof assertCredentialCovers>[2]): string | null {
  try {
    assertCredentialCovers(agent, operation, asked);
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe("assertCredentialCovers", () => {
  it("lets a granted read of its subject, receipt and categories through", () => {
    expect(refusal("get_category_records", { subject: "u_granted", categories: ["medications"] })).toBeNull();
    expect(refusal("get_category_records", { subject: "u_granted", categories: ["medications", "labs"] })).toBeNull();
    expect(refusal("get_consent_receipt", { receiptId: "rcpt_granted", categories: [] })).toBeNull();
  });

  it("refuses another subject (subject_mismatch), whatever else the request holds", () => {
    expect(refusal("get_category_records", { subject: "u_other", categories: ["medications"] })).toBe("subject_mismatch");
    expect(refusal("get_category_records", { subject: "", categories: [] })).toBe("subject_mismatch");
    expect(refusal("get_category_records", { subject: "U_GRANTED", categories: [] })).toBe("subject_mismatch");
  });

  it("refuses an operation it was not granted (operation_forbidden), before looking at the subject", () => {
    expect(refusal("get_health_record", { subject: "u_granted", categories: [] })).toBe("operation_forbidden");
    expect(refusal("get_record_changes", { subject: "u_other", categories: [] })).toBe("operation_forbidden");
  });

  it("refuses another receipt or a category outside its grant (credential_scope_exceeded)", () => {
    expect(refusal("get_consent_receipt", { receiptId: "rcpt_other", categories: [] })).toBe("credential_scope_exceeded");
    expect(refusal("get_category_records", { subject: "u_granted", categories: ["conditions"] })).toBe("credential_scope_exceeded");
    expect(refusal("get_category_records", { subject: "u_granted", categories: ["medications", "vitals"] })).toBe("credential_scope_exceeded");
  });
});

describe("the operations a delegated credential may call", () => {
  it("are the four reads, each declared by exactly one operation, and no operation that writes", () => {
    const declared = declaredPlatformOperations().filter((operation) => operation.agentOperation !== undefined);
    for (const operation of declared) expect(operation.method.toUpperCase(), operation.operationId).toBe("GET");
    // The FHIR view (issue 52) reads the same records under get_health_record; its subject is a query parameter or a
    // FHIR id, so its handlers hold the credential to its subject (lib/fhir-api/access.ts; the isolation matrix).
    const fhir = declared.filter((operation) => operation.path.startsWith("/fhir/"));
    for (const operation of fhir) expect(operation.agentOperation, operation.operationId).toBe("get_health_record");
    const granted = declared.filter((operation) => !fhir.includes(operation));
    expect(granted.map((operation) => operation.agentOperation).sort()).toEqual([...AGENT_OPERATIONS].sort());
    // The reads of one subject's records name that subject in their path, so the subject check has something to hold.
    const subjectReads = granted.filter((operation) => operation.agentOperation !== "get_consent_receipt");
    for (const operation of subjectReads) expect(operation.path, operation.operationId).toMatch(/^\/users\/\{[a-zA-Z]+\}\//);
  });
});
