import { afterAll, beforeAll } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { runSimulation } from "@/lib/simulation";
import { ensureSandboxProviders } from "@/lib/sources";
import { bearer } from "@/test/factories";
import { serveRouteFiles } from "@/test/route-server";
import { dispatchApiRequest } from "@/lib/routes";

const BASE = "http://localhost/api/v1";
export type Json = Record<string, unknown> & { error?: { code: string } };
export type Session = Json & { id: string; status: string; subject: string | null; simulation: { scenario: string; state: string; failureCode: string | null } | null; sources: { sourceId: string; providerId: string; status: string; recordCount: number; error: string | null }[] };

/**
 * Serves the synthetic health systems over HTTP for the file's tests (the SMART client talks to them as to any
 * provider) and points CHARTKEY_PUBLIC_URL at them, as a deployment's own origin would be. Returns the server (its
 * origin and the requests it served) for tests to call once it has started.
 */
export function serveSyntheticEhr(): () => Awaited<ReturnType<typeof serveRouteFiles>> {
  let ehr: Awaited<ReturnType<typeof serveRouteFiles>> | undefined;
  const previous = process.env.CHARTKEY_PUBLIC_URL;
  beforeAll(async () => {
    ehr = await serveRouteFiles("ehr");
    process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
    await ensureSandboxProviders();
  });
  afterAll(async () => {
    process.env.CHARTKEY_PUBLIC_URL = previous;
    await ehr?.close();
  });
  return () => {
    if (!ehr) throw new Error("the synthetic health systems are served from beforeAll on");
    return ehr;
  };
}

async function call(path: string, key: string, body?: unknown) {
  const response = await dispatchApiRequest(
    new Request(`${BASE}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { ...(bearer(key) as Record<string, string>), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Json };
}

export async function createSession(key: string, categories: string[] = ["medications", "allergies", "labs", "conditions"]) {
  const created = await call("/connect/sessions", key, { categories });
  if (created.status !== 201) throw new Error(`session not created: ${JSON.stringify(created.body)}`);
  return created.body as Session;
}

export const simulate = (key: string, sessionId: string, body: unknown) => call(`/connect/sessions/${sessionId}/simulate`, key, body);
export const getSession = async (key: string, sessionId: string) => (await call(`/connect/sessions/${sessionId}`, key)).body as Session;
export const sandboxEvent = (key: string, subject: string, body: unknown) => call(`/sandbox/subjects/${subject}/events`, key, body);

/** Simulates a fresh session with the scenario and runs the simulation job to its end; returns the finished session. */
export async function simulatedUser(key: string, scenario: string, categories?: string[]) {
  const session = await createSession(key, categories);
  const simulated = await simulate(key, session.id, { scenario });
  if (simulated.status !== 200) throw new Error(`simulate failed: ${JSON.stringify(simulated.body)}`);
  await runSimulation(session.id);
  const finished = await getSession(key, session.id);
  return { session: finished, subject: finished.subject as string, auth: await authenticateKey(`Bearer ${key}`) };
}
