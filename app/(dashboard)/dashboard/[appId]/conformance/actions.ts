"use server";

import { z } from "zod";
import type { RunResource } from "@/lib/conformance";
import { advanceDashboardRun, auditRunKeyReveal, cancelDashboardRun, dashboardOrigin, readDashboardRun, startDashboardRun, withApplication, type ActionOutcome } from "@/lib/dashboard";

// Every action takes the application id from the client and so re-checks it (withApplication), then the sandbox
// functions check the role's `sandbox.use`; refusals come back in the API's words.

const startInput = z.object({ scenario: z.string().min(1, "Choose a scenario."), syncMode: z.enum(["one-time", "continuous"]) });

/** Starts a run; its run key is in the answer this once. */
export async function startRunAction(applicationId: string, input: z.input<typeof startInput>): Promise<ActionOutcome<RunResource & { run_key: string }>> {
  return withApplication(applicationId, async (access) => {
    const run = await startDashboardRun(access, startInput.parse(input), await dashboardOrigin());
    await auditRunKeyReveal(access, run.id);
    return run;
  });
}

/** The run as the live panel polls it. */
export async function runStatusAction(applicationId: string, runId: string): Promise<ActionOutcome<RunResource>> {
  return withApplication(applicationId, async (access) => readDashboardRun(access, String(runId), await dashboardOrigin()));
}

export async function advanceRunAction(applicationId: string, runId: string): Promise<ActionOutcome<RunResource>> {
  return withApplication(applicationId, async (access) => advanceDashboardRun(access, String(runId), await dashboardOrigin()));
}

export async function cancelRunAction(applicationId: string, runId: string): Promise<ActionOutcome<RunResource>> {
  return withApplication(applicationId, async (access) => cancelDashboardRun(access, String(runId), await dashboardOrigin()));
}
