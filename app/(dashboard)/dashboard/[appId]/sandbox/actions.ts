"use server";

import { z } from "zod";
import {
  createSandboxSession,
  readSandboxSession,
  readSubjectRecords,
  requestOrigin,
  requireApplication,
  sandboxScenarios,
  simulateSandboxSession,
  triggerDashboardSandboxEvent,
  type SubjectRecordsPage,
} from "@/lib/dashboard";
import type { ConnectSessionResource } from "@/lib/connect";
import { ApiError } from "@/lib/http";
import type { SandboxEventResult } from "@/lib/simulation";

// Every action takes the application id from the client and so re-checks it: requireApplication answers "not found"
// for an application the signed-in developer has no part in, before anything is read or changed.

type Result<T> = { ok: true; value: T } | { ok: false; error: string };

async function attempt<T>(work: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.message };
    throw error;
  }
}

const sessionInput = z.object({
  categories: z.array(z.string()).min(1, "Choose at least one category."),
  externalUserId: z.string().trim().max(200, "Use at most 200 characters.").optional(),
});

export async function createSessionAction(applicationId: string, input: z.input<typeof sessionInput>): Promise<Result<ConnectSessionResource>> {
  const { application } = await requireApplication(applicationId);
  const parsed = sessionInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Check the form." };
  return attempt(async () => createSandboxSession(application, { categories: parsed.data.categories, externalUserId: parsed.data.externalUserId || undefined }, await requestOrigin()));
}

const simulateInput = z.object({ scenario: z.string().min(1, "Choose a scenario."), sessionId: z.string().optional() });

export async function simulateAction(applicationId: string, input: z.input<typeof simulateInput>): Promise<Result<ConnectSessionResource>> {
  const { application } = await requireApplication(applicationId);
  const parsed = simulateInput.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Choose a scenario." };
  const scenario = sandboxScenarios().find((choice) => choice.id === parsed.data.scenario);
  if (!scenario) return { ok: false, error: `${parsed.data.scenario} is not a scenario a session can be simulated with.` };
  return attempt(async () =>
    simulateSandboxSession(application, { scenario: scenario.id, sessionId: parsed.data.sessionId, consentCategories: scenario.categories }, await requestOrigin()),
  );
}

/** The session as the progress panel polls it. */
export async function sessionStatusAction(applicationId: string, sessionId: string): Promise<Result<ConnectSessionResource>> {
  const { application } = await requireApplication(applicationId);
  return attempt(async () => readSandboxSession(application, String(sessionId), await requestOrigin()));
}

export async function sandboxEventAction(applicationId: string, subjectId: string, type: string): Promise<Result<SandboxEventResult>> {
  const { application } = await requireApplication(applicationId);
  return attempt(() => triggerDashboardSandboxEvent(application, String(subjectId), String(type)));
}

export async function loadRecordsAction(applicationId: string, subjectId: string, category: string, cursor: string): Promise<SubjectRecordsPage> {
  const { application } = await requireApplication(applicationId);
  return readSubjectRecords(application, String(subjectId), String(category), String(cursor));
}
