import type { HttpMethod } from "@/lib/api";

/**
 * One MCP tool: its name and the REST operation it mirrors, by method and path template. Everything else about the
 * tool (description, input and output schemas, the answer) comes from the operation's declaration, resolved when
 * the tool is listed or called, so a tool cannot drift from its operation.
 */
export type ToolEntry = {
  name: string;
  method: HttpMethod;
  path: string;
  /** A write that ends something for good (a session, a consent); reads and additive writes are not. */
  destructive?: boolean;
};

/** A server's tools and the API family (path prefix) their REST twins belong to. */
export type ToolSet = { serverName: string; prefix: string; instructions: string; tools: readonly ToolEntry[] };

/** The authenticated MCP server's tools: the spec's "MCP tools" table. */
export const PLATFORM_TOOLS: ToolSet = {
  serverName: "chartkey",
  prefix: "/api/v1",
  instructions:
    "Chartkey: patient-authorized health records. Each tool is one REST operation of the API (same inputs, same " +
    "answers, same error codes). Read a subject's records with get_health_record, then page a category with " +
    "get_category_records and follow its changes with get_record_changes; search_fhir reads the same consented records as FHIR R4.",
  tools: [
    { name: "get_app", method: "GET", path: "/app" },
    { name: "list_users", method: "GET", path: "/users" },
    { name: "get_health_record", method: "GET", path: "/users/{subject}/records" },
    { name: "get_category_records", method: "GET", path: "/users/{subject}/records/{category}" },
    { name: "get_record_changes", method: "GET", path: "/users/{subject}/records/{category}/changes" },
    { name: "get_consent_receipt", method: "GET", path: "/consents/{receiptId}" },
    { name: "search_fhir", method: "GET", path: "/fhir/{resourceType}" },
    { name: "create_connect_session", method: "POST", path: "/connect/sessions" },
    { name: "get_connect_session", method: "GET", path: "/connect/sessions/{sessionId}" },
    { name: "cancel_connect_session", method: "POST", path: "/connect/sessions/{sessionId}/cancel", destructive: true },
    { name: "simulate_connect_session", method: "POST", path: "/connect/sessions/{sessionId}/simulate" },
    { name: "trigger_sandbox_event", method: "POST", path: "/sandbox/subjects/{subject}/events", destructive: true },
    { name: "start_conformance_run", method: "POST", path: "/conformance/runs" },
    { name: "get_conformance_run", method: "GET", path: "/conformance/runs/{runId}" },
    { name: "advance_conformance_run", method: "POST", path: "/conformance/runs/{runId}/advance" },
  ],
};

/** The keyless demo MCP server's tools: read-only, over the demo's fictional data. */
export const DEMO_TOOLS: ToolSet = {
  serverName: "chartkey-demo",
  prefix: "/demo/v1",
  instructions:
    "Chartkey demo: fixed fictional patients, not for clinical use. Each tool is one keyless demo REST operation. " +
    "list_scenarios and list_subjects name the subjects; get_health_record reads one in the platform's record shape; " +
    "search_fhir and read_fhir read the synthetic EHR's FHIR R4 resources.",
  tools: [
    { name: "list_scenarios", method: "GET", path: "/scenarios" },
    { name: "get_scenario", method: "GET", path: "/scenarios/{scenarioId}" },
    { name: "list_subjects", method: "GET", path: "/patients" },
    { name: "get_subject", method: "GET", path: "/patients/{patientId}" },
    { name: "get_health_record", method: "GET", path: "/users/{subject}/records" },
    { name: "search_fhir", method: "GET", path: "/fhir/{resourceType}" },
    { name: "read_fhir", method: "GET", path: "/fhir/{resourceType}/{resourceId}" },
  ],
};

/** The path parameters of a template, in order: `/users/{subject}/records/{category}` -> subject, category. */
export function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
}
