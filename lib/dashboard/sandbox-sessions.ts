import { createConnectSession, loadSession, presentSession, getConnectSession, type ConnectSessionResource } from "@/lib/connect";
import { db } from "@/lib/db";
import { simulateConnectSession } from "@/lib/simulation";
import { dashboardSandbox, type SandboxAccess } from "./sandbox-access";

export type SandboxSessionInput = { categories: string[]; externalUserId?: string | undefined };

/** A pending sandbox Connect session, created as POST /connect/sessions creates one (categories within the allowlist). */
export async function createSandboxSession(access: SandboxAccess, input: SandboxSessionInput, origin: string): Promise<ConnectSessionResource> {
  const body = { categories: input.categories, ...(input.externalUserId ? { externalUserId: input.externalUserId } : {}) };
  return createConnectSession(dashboardSandbox(access), body, origin);
}

/**
 * Simulates a scenario as POST /connect/sessions/{id}/simulate does: on the given pending session, or on a new one
 * asking for every allowlisted category the scenario's patient consents to.
 */
export async function simulateSandboxSession(
  access: SandboxAccess,
  input: { scenario: string; sessionId?: string | undefined; consentCategories: readonly string[] },
  origin: string,
): Promise<ConnectSessionResource> {
  const auth = dashboardSandbox(access);
  let sessionId = input.sessionId;
  if (!sessionId) {
    const allowlist = access.application.categoryAllowlist;
    const covered = allowlist.filter((category) => input.consentCategories.includes(category));
    sessionId = (await createConnectSession(auth, { categories: covered.length > 0 ? covered : allowlist }, origin)).id;
  }
  return simulateConnectSession(auth, sessionId, input.scenario, origin);
}

/** One of the application's sandbox sessions as GET /connect/sessions/{id} shows it; 404 `not_found` for any other. */
export async function readSandboxSession(access: SandboxAccess, sessionId: string, origin: string): Promise<ConnectSessionResource> {
  return getConnectSession(dashboardSandbox(access), sessionId, origin);
}

/** The application's most recent sandbox sessions (conformance runs' left out), newest first, as the session resource shows each. */
export async function listSandboxSessions(applicationId: string, origin: string, limit = 20): Promise<ConnectSessionResource[]> {
  const rows = await db().connectSession.findMany({
    where: { applicationId, environment: "sandbox", conformanceRunId: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true },
  });
  const sessions = await Promise.all(rows.map((row) => loadSession({ id: row.id, applicationId, environment: "sandbox" })));
  return sessions.flatMap((session) => (session ? [presentSession(session, origin)] : []));
}
