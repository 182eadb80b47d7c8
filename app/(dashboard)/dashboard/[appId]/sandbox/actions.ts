"use server";

import { z } from "zod";
import type { ConnectSessionResource } from "@/lib/connect";
import {
  actionFailure,
  applicationAccess,
  createSandboxSession,
  dashboardOrigin,
  readSandboxSession,
  readSubjectRecords,
  sandboxScenarios,
  simulateSandboxSession,
  triggerDashboardSandboxEvent,
  type ApplicationContext,
} from "@/lib/dashboard";
import { ApiError } from "@/lib/http";
import type { NormalizedRecord } from "@/lib/records";
import type { SandboxEventResult } from "@/lib/simulation";

// Every action takes the application id from the client and so re-checks it: applicationAccess answers null for an
// application the signed-in developer is not a member of (or when signed out), before anything is read or changed;
// the sandbox functions then check the role's `sandbox.use`.

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

const NOT_FOUND = { ok: false, error: "Application not found." } as const;

async function withSandbox<T>(applicationId: unknown, work: (access: ApplicationContext) => Promise<T>): Promise<Result<T>> {
  const access = await applicationAccess(applicationId);
  if (!access) return NOT_FOUND;
  try {
    return { ok: true, value: await work(access) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.message };
    return actionFailure(error);
  }
}

const sessionInput = z.object({
  categories: z.array(z.string()).min(1, "Choose at least one category."),
  externalUserId: z.string().trim().max(200, "Use at most 200 characters.").optional(),
});

export async function createSessionAction(applicationId: string, input: z.input<typeof sessionInput>): Promise<Result<ConnectSessionResource>> {
  return withSandbox(applicationId, async (access) => {
    const { categories, externalUserId } = sessionInput.parse(input);
    return createSandboxSession(access, { categories, externalUserId: externalUserId || undefined }, await dashboardOrigin());
  });
}

const simulateInput = z.object({ scenario: z.string().min(1, "Choose a scenario."), sessionId: z.string().optional() });

export async function simulateAction(applicationId: string, input: z.input<typeof simulateInput>): Promise<Result<ConnectSessionResource>> {
  return withSandbox(applicationId, async (access) => {
    const parsed = simulateInput.parse(input);
    const scenario = sandboxScenarios().find((choice) => choice.id === parsed.scenario);
    if (!scenario) throw new ApiError("invalid_scenario", `${parsed.scenario} is not a scenario a session can be simulated with.`);
    return simulateSandboxSession(access, { scenario: scenario.id, sessionId: parsed.sessionId, consentCategories: scenario.categories }, await dashboardOrigin());
  });
}

/** The session as the progress panel polls it. */
export async function sessionStatusAction(applicationId: string, sessionId: string): Promise<Result<ConnectSessionResource>> {
  return withSandbox(applicationId, async (access) => readSandboxSession(access, String(sessionId), await dashboardOrigin()));
}

export async function sandboxEventAction(applicationId: string, subjectId: string, type: string): Promise<Result<SandboxEventResult>> {
  return withSandbox(applicationId, (access) => triggerDashboardSandboxEvent(access, String(subjectId), String(type)));
}

/** The next page of a category's records for the table's "Load more". */
export async function loadRecordsAction(applicationId: string, subjectId: string, category: string, cursor: string): Promise<Result<{ records: NormalizedRecord[]; nextCursor: string | null }>> {
  return withSandbox(applicationId, async (access) => {
    const page = await readSubjectRecords(access.application.id, String(subjectId), String(category), String(cursor));
    if (!page) throw new ApiError("not_found", "No such sandbox subject or category for this application.");
    return page;
  });
}
