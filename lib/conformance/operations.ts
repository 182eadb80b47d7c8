import { z } from "zod";
import { defineOperation, pathId, PLATFORM_PROFILE, PUBLIC_PROFILE } from "@/lib/api";
import { cursorParam, HEADER, limitParam, type ErrorCode } from "@/lib/http";
import { FORCED_RETRY_AFTER_SECONDS } from "./limits";
import { rulesParagraph } from "./rules";
import { createdRunSchema, createRunBodySchema, reportParamsSchema, reportSchema, runListSchema, runSchema, type Check, type ReportResource, type RunResource } from "./schemas";

// Examples are a run of the reference integration (examples/conformance-reference) as the API answered it.
const exampleChecks: Check[] = [
  {
    id: "connect_session",
    phase: "session",
    title: "Connect session created with the run key",
    status: "passed",
    summary: "The integration created a Connect session with the run key, and it completed as the scenario's patient.",
    evidence: { createRequestId: "req_9fJ2kL4mN6pQ8rS0tU2vW4xY", secondsToSession: 2, sessionStatus: "completed", simulationState: "importing" },
    fix: null,
  },
  {
    id: "retry_after",
    phase: "rate_limits",
    title: "Forced 429s retried no sooner than Retry-After",
    status: "failed",
    summary: `2 of 2 forced 429s were retried after 12 ms and 9 ms, sooner than Retry-After (${FORCED_RETRY_AFTER_SECONDS} s).`,
    evidence: {
      forcedCount: 2,
      retryAfterSeconds: [FORCED_RETRY_AFTER_SECONDS, FORCED_RETRY_AFTER_SECONDS],
      waitedMs: [12, 9],
      forcedRequestIds: ["req_2bC4dE6fG8hJ0kL2mN4pQ6rS", "req_3cD5eF7gH9jK1lM3nP5qR7sT"],
      retryRequestIds: ["req_3cD5eF7gH9jK1lM3nP5qR7sT", "req_4dE6fG8hJ0kL2mN4pQ6rS8tU"],
    },
    fix: "On a 429, wait at least the Retry-After header's seconds before sending the request again.",
  },
];

function exampleRun(overrides: Partial<RunResource> = {}): RunResource {
  return {
    object: "conformance_run",
    id: "run_4Kd8Lm2Np6Qr0St4Uv8Wx2Yz",
    status: "open",
    scenario: "baseline-adult",
    sync_mode: "continuous",
    phase: "session",
    waitingFor: "Create a Connect session with the run key (POST /connect/sessions).",
    phases: [
      { name: "session", status: "active", startedAt: "2026-11-23T10:12:00.000Z", endedAt: null, endedBy: null },
      { name: "rate_limits", status: "pending", startedAt: null, endedAt: null, endedBy: null },
      { name: "consent_revocation", status: "pending", startedAt: null, endedAt: null, endedBy: null },
      { name: "webhook_probes", status: "pending", startedAt: null, endedAt: null, endedBy: null },
    ],
    checks: [],
    verdict: null,
    createdAt: "2026-11-23T10:12:00.000Z",
    endedAt: null,
    expiresAt: "2026-11-23T11:12:00.000Z",
    links: {
      report: "https://chartkey.example/conformance/reports/mXq0v3mJ2a9gYtJw4d0l7u1bA6r8sK5eH3pQzNcVfWo",
      reportPage: "https://chartkey.example/reports/mXq0v3mJ2a9gYtJw4d0l7u1bA6r8sK5eH3pQzNcVfWo",
    },
    ...overrides,
  };
}

const advancedRun = () =>
  exampleRun({
    phase: "consent_revocation",
    waitingFor: "Consent was revoked (consent.revoked): stop reading the subject.",
    phases: [
      { name: "session", status: "completed", startedAt: "2026-11-23T10:12:00.000Z", endedAt: "2026-11-23T10:12:03.000Z", endedBy: "completed" },
      { name: "rate_limits", status: "completed", startedAt: "2026-11-23T10:12:03.000Z", endedAt: "2026-11-23T10:12:40.000Z", endedBy: "advanced" },
      { name: "consent_revocation", status: "active", startedAt: "2026-11-23T10:12:40.000Z", endedAt: null, endedBy: null },
      { name: "webhook_probes", status: "pending", startedAt: null, endedAt: null, endedBy: null },
    ],
    checks: exampleChecks,
    expiresAt: null,
  });

/** What every operation on one run can answer besides its own rules. */
const RUN_ERRORS: ErrorCode[] = ["sandbox_only", "not_found", "conformance_unavailable"];
const common = { profile: PLATFORM_PROFILE, tag: "Conformance", auth: "key" as const };

const runParamsSchema = z.object({
  runId: pathId("run_", { resource: "conformance run", description: "The run id (run_).", example: "run_4Kd8Lm2Np6Qr0St4Uv8Wx2Yz" }),
});

export const listConformanceRunsOperation = defineOperation({
  ...common,
  method: "GET",
  path: "/conformance/runs",
  operationId: "listConformanceRuns",
  summary: "List the application's conformance runs",
  description: "Sandbox keys only. Newest first, a page at a time; runs never carry their run keys.",
  query: z.object({ limit: limitParam, cursor: cursorParam }),
  success: {
    status: 200,
    description: "A page of runs.",
    schema: runListSchema,
    example: () => ({ data: [advancedRun()], hasMore: false, nextCursor: null }),
  },
  errors: ["sandbox_only", "invalid_pagination", "invalid_cursor", "conformance_unavailable"],
});

export const startConformanceRunOperation = defineOperation({
  ...common,
  method: "POST",
  path: "/conformance/runs",
  operationId: "startConformanceRun",
  summary: "Start a conformance run",
  description:
    "Sandbox keys only, on an application still in the sandbox; one open run per application. The answer carries run_key, a " +
    "sandbox key shown only here: configure the integration with it. The run then drives its phases in order and ends with a " +
    "verdict; the run key is revoked then. Without a Connect session within 60 minutes the run expires. Polls of runs and " +
    `sessions are never forced or graded. ${rulesParagraph()}`,
  body: createRunBodySchema,
  bodyDescription: "The scenario and optionally the sync mode.",
  bodyExample: () => ({ scenario: "baseline-adult", sync_mode: "continuous" }),
  success: {
    status: 201,
    description: "The run, open in its session phase, with its run key shown this once.",
    schema: createdRunSchema,
    example: () => ({ ...exampleRun(), run_key: "ck_test_3Fh7Jk1Lm5Np9Qr3St7Uv1Wx5Yz9Ab3Cd7Ef1Gh5" }),
  },
  errors: ["sandbox_only", "app_not_sandbox", "run_in_progress", "run_not_open", "invalid_scenario", "conformance_unavailable"],
});

export const getConformanceRunOperation = defineOperation({
  ...common,
  method: "GET",
  path: "/conformance/runs/{runId}",
  operationId: "getConformanceRun",
  summary: "Read a conformance run",
  description: "Its live phase and what it waits for from the integration, each check graded so far with its evidence, and the verdict once ended. Never the run key.",
  params: runParamsSchema,
  success: { status: 200, description: "The run.", schema: runSchema, example: advancedRun },
  errors: RUN_ERRORS,
});

export const advanceConformanceRunOperation = defineOperation({
  ...common,
  method: "POST",
  path: "/conformance/runs/{runId}/advance",
  operationId: "advanceConformanceRun",
  summary: "End the run's live phase now",
  description:
    "Grades the live phase with what was observed so far (checks may be inconclusive) and moves on; advancing the last phase " +
    "ends the run with its verdict. Advancing the consent_revocation phase before 15 s have passed since the integration was " +
    "told of the revocation, or a continuous run's rate_limits phase before 15 s after its change, leaves that check inconclusive. The session phase ends only once the run's Connect session completed, and the probes " +
    "phase cannot end while probes are being sent (409 phase_not_advanceable). An ended run is 409 run_not_open.",
  params: runParamsSchema,
  success: { status: 200, description: "The run after the phase ended.", schema: runSchema, example: advancedRun },
  errors: [...RUN_ERRORS, "phase_not_advanceable", "run_not_open"],
});

export const cancelConformanceRunOperation = defineOperation({
  ...common,
  method: "POST",
  path: "/conformance/runs/{runId}/cancel",
  operationId: "cancelConformanceRun",
  summary: "Cancel a conformance run",
  description: "The run ends cancelled, without a verdict, and its run key is revoked. An ended run is 409 run_not_open.",
  params: runParamsSchema,
  success: {
    status: 200,
    description: "The cancelled run.",
    schema: runSchema,
    example: () => exampleRun({ status: "cancelled", phase: "ended", waitingFor: null, endedAt: "2026-11-23T10:20:00.000Z", expiresAt: null }),
  },
  errors: [...RUN_ERRORS, "run_not_open"],
});

// The report's schema strips what only the run resource carries (id, links, expiry).
const exampleReport = (): ReportResource =>
  reportSchema.parse({ ...advancedRun(), object: "conformance_report", application: { name: "Acme Health" }, reportExpiresAt: "2027-02-21T10:12:00.000Z", generatedAt: "2026-11-23T10:13:00.000Z" });

/** The public report, at the host root (`{root_url}/conformance/reports/{token}`), not under /api/v1. */
export const getConformanceReportOperation = defineOperation({
  profile: PUBLIC_PROFILE,
  method: "GET",
  path: "/conformance/reports/{token}",
  operationId: "getConformanceReport",
  tag: "Conformance",
  summary: "A shared conformance report",
  description:
    "No key. Readable from any origin without credentials, never cached (Cache-Control: no-store), limited per network " +
    "address. Names the application only by its name and carries no subject, session, key or record. Kept 90 days.",
  auth: "none",
  params: reportParamsSchema,
  success: { status: 200, description: "The report.", schema: reportSchema, example: exampleReport },
  errors: ["not_found", "conformance_unavailable"],
  headers: [HEADER.retryAfter],
});

export const CONFORMANCE_OPERATIONS = [listConformanceRunsOperation, startConformanceRunOperation, getConformanceRunOperation, advanceConformanceRunOperation, cancelConformanceRunOperation] as const;
