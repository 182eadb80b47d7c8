import { afterAll, beforeAll, expect, vi } from "vitest";
import { beginSignIn, chooseProviders, completeSession, finishSignIn, linkToken } from "@/lib/connect";
import { db } from "@/lib/db";
import { createLiveProvider } from "@/lib/provider-directory";
import { request, startApiServer } from "@/test/api-server";
import { createTestApplication, createTestDeveloper } from "@/test/factories";
import { authorizeWithoutBrowser, startThirdPartySmartServer, type ThirdPartySmartServer } from "./server";

/** Where the Connect flow runs in these tests: the third-party server's registered redirect is its callback. */
export const FLOW_ORIGIN = "https://connect.chartkey.test";

export type ApiServer = Awaited<ReturnType<typeof startApiServer>>;

/**
 * The third-party SMART server and the platform's API over real HTTP, started before the file's tests and stopped
 * after. `allowTestServerHost` names 127.0.0.1 as a private host the deployment trusts for the whole file (a
 * self-hosted network naming its EHR); files that test the refusal stub it per test instead.
 */
export function startThirdPartySmartForFile(options: { allowTestServerHost: boolean; permissionV2?: boolean }): { smart: () => ThirdPartySmartServer; api: () => ApiServer } {
  let smart: ThirdPartySmartServer | undefined;
  let api: ApiServer | undefined;
  beforeAll(async () => {
    smart = await startThirdPartySmartServer({ redirectUris: [`${FLOW_ORIGIN}/connect/callback`], permissionV2: options.permissionV2 });
    api = await startApiServer();
    if (options.allowTestServerHost) vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await smart?.stop();
    await api?.close();
  });
  return { smart: () => smart!, api: () => api! };
}

/** The third-party server in the live directory, added by an operator the deployment names (one row per FHIR base URL). */
export async function addThirdPartyProvider(smart: ThirdPartySmartServer) {
  const operator = await createTestDeveloper();
  vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", operator.email);
  const provider = await createLiveProvider(operator.id, { name: "Third Party Health", location: "Springfield, IL", fhirBaseUrl: smart.fhirBaseUrl, clientId: smart.clientId, clientSecret: smart.clientSecret });
  return { operator, provider };
}

export type ThirdPartyConnect = {
  api: ApiServer;
  providerId: string;
  /** The login name at the third-party server: the FHIR Patient id the session is for. */
  patient: string;
  asked: readonly string[];
  /** What the patient shares on the review page; the asked categories when omitted. */
  granted?: readonly string[];
  application?: Parameters<typeof createTestApplication>[0];
};

/**
 * An approved application's live key opens a Connect session over the API; the patient chooses the third-party
 * server, signs in there on its own login and consent pages (walked over HTTP), and shares. Returns the
 * application, the session's subject and the source, not yet imported, and the authorization URL the sign-in used.
 */
export async function connectThirdPartyPatient({ api, providerId, patient, asked, granted = asked, application = {} }: ThirdPartyConnect) {
  const app = await createTestApplication(application);
  await db().application.update({ where: { id: app.application.id }, data: { productionEnabled: true, status: "active" } });
  const created = await request(api.origin, "POST", "/api/v1/connect/sessions", { token: app.liveKey, body: { categories: asked } });
  expect(created.status).toBe(201);
  expect(created.body.environment).toBe("live");
  const sessionId = created.body.id as string;
  const token = linkToken("session", sessionId);
  await chooseProviders(sessionId, "live", [providerId]);
  const begun = await beginSignIn(token, providerId, FLOW_ORIGIN);
  const callback = await authorizeWithoutBrowser(begun.authorizationUrl, patient);
  expect(await finishSignIn(callback, (state) => state === begun.state)).toEqual({ token, error: null });
  const { subjectId } = await completeSession(sessionId, [...granted]);
  const source = await db().source.findFirstOrThrow({ where: { subjectId, providerId } });
  return { ...app, sessionId, subjectId, source, authorizationUrl: new URL(begun.authorizationUrl) };
}
