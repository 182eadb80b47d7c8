import { z } from "zod";
import { PHASES } from "./limits";

const SYNC_MODES = ["one-time", "continuous"] as const;
const RUN_STATUSES = ["open", "ended", "cancelled", "expired"] as const;
const CHECK_STATUSES = ["passed", "failed", "inconclusive"] as const;

export const createRunBodySchema = z
  .strictObject({
    scenario: z
      .string()
      .describe("A record scenario (baseline-adult, multi-source-overlap, pediatric-child); its synthetic patient is the run's subject.")
      .meta({ example: "baseline-adult" }),
    sync_mode: z
      .enum(SYNC_MODES)
      .optional()
      .describe("one-time (default) or continuous; continuous adds the change-feed check and needs an application whose sync mode is continuous.")
      .meta({ example: "one-time" }),
  })
  .meta({ id: "CreateConformanceRun", description: "The run to start." });
export type CreateRunBody = z.output<typeof createRunBodySchema>;

export const reportParamsSchema = z.object({
  token: z.string().describe("The report's token, from the run's links.report.").meta({ example: "mXq0v3mJ2a9gYtJw4d0l7u1bA6r8sK5eH3pQzNcVfWo" }),
});

/** Evidence values are plain facts: counts, timings in milliseconds, status codes, request ids. */
const evidenceValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number(), z.null()]))]);

export const checkSchema = z
  .object({
    id: z.string().describe("Stable name of the check, e.g. retry_after."),
    phase: z.enum(PHASES),
    title: z.string(),
    status: z.enum(CHECK_STATUSES),
    summary: z.string().describe("What was observed, in one sentence."),
    evidence: z.record(z.string(), evidenceValue).describe("Counts, timings (ms), status codes and request ids the grade rests on."),
    fix: z.string().nullable().describe("How to fix a failure, in one line; null unless failed."),
  })
  .meta({ id: "ConformanceCheck", description: "One graded check and its evidence." });
export type Check = z.output<typeof checkSchema>;

export const phaseEntrySchema = z
  .object({
    name: z.enum(PHASES),
    status: z
      .enum(["pending", "active", "completed", "stopped", "skipped"])
      .describe("pending, active, completed (ran to its end, or advanced), stopped (the run was cancelled or expired in it), skipped (never reached)."),
    startedAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    endedBy: z.enum(["completed", "advanced", "timed_out", "cancelled", "expired"]).nullable(),
  })
  .meta({ id: "ConformancePhase", description: "One phase on the run's timeline." });
export type PhaseEntry = z.output<typeof phaseEntrySchema>;

const runFields = {
  status: z.enum(RUN_STATUSES),
  scenario: z.string(),
  sync_mode: z.enum(SYNC_MODES),
  phase: z.enum([...PHASES, "ended"]).describe("The live phase; ended once the run is over."),
  waitingFor: z.string().nullable().describe("What the run waits for from the integration now; null once ended."),
  phases: z.array(phaseEntrySchema),
  checks: z.array(checkSchema).describe("Graded checks so far, in phase order."),
  verdict: z.enum(CHECK_STATUSES).nullable().describe("Set once the run ends: passed when every check passed, failed when any failed, else inconclusive."),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
};

export const runSchema = z
  .object({
    object: z.literal("conformance_run"),
    id: z.string(),
    ...runFields,
    expiresAt: z.string().nullable().describe("Until a Connect session is created with the run key: when the run expires without one."),
    links: z.object({
      report: z.string().describe("The public report JSON, readable without a key."),
      reportPage: z.string().describe("The same report as a page to share."),
    }),
  })
  .meta({ id: "ConformanceRun", description: "A conformance run: its live phase, checks with evidence, and the verdict once ended. Never its run key." });
export type RunResource = z.output<typeof runSchema>;

export const createdRunSchema = runSchema
  .extend({ run_key: z.string().describe("A sandbox key (ck_test_) whose requests are attributed to the run; shown only here, revoked when the run ends.") })
  .meta({ id: "CreatedConformanceRun", description: "A new run, with its run key shown this once." });

export const runListSchema = z
  .object({ data: z.array(runSchema), hasMore: z.boolean(), nextCursor: z.string().nullable() })
  .meta({ id: "ConformanceRunList", description: "Runs, newest first." });

export const reportSchema = z
  .object({
    object: z.literal("conformance_report"),
    application: z.object({ name: z.string() }),
    ...runFields,
    reportExpiresAt: z.string().describe("The report is deleted after this time."),
    generatedAt: z.string(),
  })
  .meta({ id: "ConformanceReport", description: "A run's public report. Names the application only by its name; carries no subject, session, key or record." });
export type ReportResource = z.output<typeof reportSchema>;

// The rules a run follows, for the pages that state them (client-safe: words and numbers only).
export { CHECK_RULES, PHASE_RULES } from "./rules";
