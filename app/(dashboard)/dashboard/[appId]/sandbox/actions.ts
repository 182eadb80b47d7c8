"use server";

import { z } from "zod";
import { revokeCredentialFor } from "@/lib/agents";
import type { ConnectSessionResource } from "@/lib/connect";
import {
  applicationAction,
  createSandboxSession,
  dashboardOrigin,
  readSandboxSession,
  readSubjectRecords,
  sandboxScenarios,
  simulateSandboxSession,
  triggerDashboardSandboxEvent,
  withApplication,
  type ActionOutcome,
  type ActionResult,
} from "@/lib/dashboard";
import { ApiError } from "@/lib/http";
import type { NormalizedRecord } from "@/lib/records";
import type { SandboxEventResult } from "@/lib/simulation";

// Every action takes the application id from the client and so re-checks it: withApplication answers "Application
// not found." for an application the signed-in developer is not a member of (or when signed out), before anything
// is read or changed; the sandbox functions then check the role's `sandbox.use`.

const sessionInput = z.object({
  categories: z.array(z.string()).min(1, "Choose at least one category."),
  externalUserId: z.string().trim().max(200, "Use at most 200 characters.").optional(),
});

export async function createSessionAction(applicationId: string, input: z.input<typeof sessionInput>): Promise<ActionOutcome<ConnectSessionResource>> {
  return withApplication(applicationId, async (access) => {
    const { categories, externalUserId } = sessionInput.parse(input);
    return createSandboxSession(access, { categories, externalUserId: externalUserId || undefined }, await dashboardOrigin());
  });
}

const simulateInput = z.object({ scenario: z.string().min(1, "Choose a scenario."), sessionId: z.string().optional() });

export async function simulateAction(applicationId: string, input: z.input<typeof simulateInput>): Promise<ActionOutcome<ConnectSessionResource>> {
  return withApplication(applicationId, async (access) => {
    const parsed = simulateInput.parse(input);
    const scenario = sandboxScenarios().find((choice) => choice.id === parsed.scenario);
    if (!scenario) throw new ApiError("invalid_scenario", `${parsed.scenario} is not a scenario a session can be simulated with.`);
    return simulateSandboxSession(access, { scenario: scenario.id, sessionId: parsed.sessionId, consentCategories: scenario.categories }, await dashboardOrigin());
  });
}

/** The session as the progress panel polls it. */
export async function sessionStatusAction(applicationId: string, sessionId: string): Promise<ActionOutcome<ConnectSessionResource>> {
  return withApplication(applicationId, async (access) => readSandboxSession(access, String(sessionId), await dashboardOrigin()));
}

export async function sandboxEventAction(applicationId: string, subjectId: string, type: string): Promise<ActionOutcome<SandboxEventResult>> {
  return withApplication(applicationId, (access) => triggerDashboardSandboxEvent(access, String(subjectId), String(type)));
}

/** The next page of a category's records for the table's "Load more". */
export async function loadRecordsAction(applicationId: string, subjectId: string, category: string, cursor: string): Promise<ActionOutcome<{ records: NormalizedRecord[]; nextCursor: string | null }>> {
  return withApplication(applicationId, async (access) => {
    const page = await readSubjectRecords(access.application.id, String(subjectId), String(category), String(cursor));
    if (!page) throw new ApiError("not_found", "No such sandbox subject or category for this application.");
    return page;
  });
}

export async function revokeCredentialAction(applicationId: string, credentialId: string): Promise<ActionResult> {
  return applicationAction(applicationId, (access) => revokeCredentialFor(access, String(credentialId)), (credential) => `Credential ${credential.id} revoked: its next request is refused.`);
}
