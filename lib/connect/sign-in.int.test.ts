import { describe, expect, it } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { db } from "@/lib/db";
import { issueAuthorizationCodeDirectly } from "@/lib/ehr";
import { createTestApplication } from "@/test/factories";
import { serveSyntheticEhr } from "@/test/sandbox";
import { chooseProviders } from "./choose-providers";
import { createConnectSession } from "./create-session";
import { linkToken } from "./link-tokens";
import { getConnectSession } from "./read-session";
import { beginSignIn, finishSignIn } from "./sign-in";

const PROVIDER = "riverbend-health";
const ehr = serveSyntheticEhr();

async function pendingSession() {
  const { sandboxKey } = await createTestApplication();
  const key = await authenticateKey(`Bearer ${sandboxKey}`);
  const session = await createConnectSession(key, { categories: ["labs"] }, ehr().origin);
  const token = linkToken("session", session.id);
  await chooseProviders(session.id, "sandbox", [PROVIDER]);
  return { key, session, token };
}

describe("signing in at a health system from the hosted flow", () => {
  it("attaches the source with sealed tokens under the session's subject, which the application sees only after consent", async () => {
    const { key, session, token } = await pendingSession();
    const begun = await beginSignIn(token, PROVIDER, ehr().origin);
    // The synthetic health system's page names the application the patient shares with, not only Chartkey.
    const { application } = await db().connectSession.findUniqueOrThrow({ where: { id: session.id }, select: { application: { select: { name: true } } } });
    expect(new URL(begun.authorizationUrl).searchParams.get("on_behalf_of")).toBe(application.name);
    const callback = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: "baseline-adult.primary" });
    expect(await finishSignIn(callback, (state) => state === begun.state)).toEqual({ token, error: null });

    const source = await db().source.findFirstOrThrow({ where: { connectSessionId: session.id } });
    expect(source).toMatchObject({ providerId: PROVIDER, connected: true, syncStatus: "pending" });
    expect(source.accessTokenEncrypted).toBeTruthy();
    expect(source.fhirPatientId).toBeTruthy();
    const shown = await getConnectSession(key, session.id, ehr().origin);
    expect(shown.subject).toBeNull();
    expect(shown.sources).toEqual([expect.objectContaining({ providerId: PROVIDER, status: "pending" })]);
  });

  it("refuses a callback this browser did not start, and reports a denial", async () => {
    const { session, token } = await pendingSession();
    const begun = await beginSignIn(token, PROVIDER, ehr().origin);
    const callback = await issueAuthorizationCodeDirectly({ authorizationUrl: begun.authorizationUrl, patientKey: "baseline-adult.primary" });
    expect(await finishSignIn(callback, () => false)).toEqual({ token, error: "failed" });
    expect(await db().source.count({ where: { connectSessionId: session.id } })).toBe(0);

    const again = await beginSignIn(token, PROVIDER, ehr().origin);
    const denied = new URL(`${ehr().origin}/connect/callback`);
    denied.searchParams.set("error", "access_denied");
    denied.searchParams.set("state", again.state);
    expect(await finishSignIn(denied.toString(), () => true)).toEqual({ token, error: "access_denied" });
    expect(await finishSignIn(`${ehr().origin}/connect/callback?code=x&state=unknown`, () => true)).toBeNull();
  });

  it("only for a health system the patient chose, while the session is pending", async () => {
    const { token } = await pendingSession();
    await expect(beginSignIn(token, "lakeshore-health", ehr().origin)).rejects.toMatchObject({ code: "invalid_request" });
  });
});
