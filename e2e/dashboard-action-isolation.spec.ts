import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { RUNTIME_FILE } from "@/lib/db";
import { createApplication, enrolAuthenticator, newDeveloper, signUp } from "./dashboard-helpers";

// The dashboard's server actions across teams and roles, enumerated from the source (every module that starts with
// "use server" and every function marked so inline; a new action fails the first test until it has a matrix entry)
// and called as the browser calls them (POST with the Next-Action id of the production build): a developer of
// another team is told the application is not found, a member (the role below owner) is refused every owner-only
// action, and afterwards the application is exactly as it was: nothing another team or a lesser role sent changed
// it. A webhook delivery (no /api/v1 operation returns one) is covered where it is reachable: its dashboard page and
// its Re-send action, from another team and from another team's own application.

const ACTION_ROOT = path.join("app", "(dashboard)", "dashboard", "[appId]");
const OPERATOR_ROOT = path.join("app", "(dashboard)", "dashboard", "operator");

type Action = { file: string; name: string };

/** Every server action in the app's source: exported functions of "use server" modules, and inline ones. */
function serverActions(): Action[] {
  return ["app", "components"].flatMap((root) =>
    readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .flatMap((file) => {
        const source = readFileSync(path.join(root, file), "utf8");
        const names = /^\s*["']use server["']/.test(source)
          ? [...source.matchAll(/^export async function (\w+)\(/gm)].map((match) => match[1]!)
          : [...source.matchAll(/async function (\w+)\([^)]*\)[^{]*\{\s*["']use server["']/g)].map((match) => match[1]!);
        return names.map((name) => ({ file: path.join(root, file), name }));
      }),
  );
}

/** The server actions of the pages under `root`. */
const enumeratedActions = (root = ACTION_ROOT): Action[] => serverActions().filter(({ file }) => file.startsWith(root + path.sep));

/**
 * The server actions outside an application's and the operator's pages: none names a team's application, so the
 * team-and-role matrix does not apply. Each says what it acts on instead; those that can reach another developer's
 * data have their own check below.
 */
const SELF_SCOPED: Record<string, string> = {
  signInWithPassword: "runs before any session: it signs in the account whose password is given",
  signUpWithPassword: "runs before any session: it creates a new account",
  signOutAction: "ends the caller's own session",
  chooseLanguageAction: "sets the caller's own language cookie",
  createApplicationAction: "creates an application whose only member is the caller",
  acceptInvitationAction: "joins the team an invitation names, only for the address it was sent to: checked below",
  chooseProvidersAction: "acts on the Connect session whose patient link token it is given (the token is the patient's only authority, no team or role)",
  signInAction: "acts on the Connect session whose patient link token it is given",
  consentAction: "acts on the Connect session whose patient link token it is given",
  cancelAction: "acts on the Connect session whose patient link token it is given",
  revokeAction: "revokes the receipt whose patient link token it is given",
  deleteAction: "deletes Chartkey's copy for the receipt whose patient link token it is given (stopping the sharing first)",
  giveSecondFactorAction: "gives the second factor for the caller's own session (its code is checked against the caller's own account)",
  passkeyOptionsAction: "a WebAuthn challenge for the caller's own account, or for a password-less sign-in",
  passkeyFactorAction: "gives the second factor for the caller's own session with one of the caller's own passkeys",
  passkeySignInAction: "runs before any session: it signs in the account whose passkey answers the challenge",
  endSessionAction: "ends one of the caller's own sessions: another account's session id is refused, checked below",
  signOutEverywhereAction: "ends the caller's own sessions",
  beginTotpAction: "starts an authenticator app on the caller's own account",
  confirmTotpAction: "confirms the authenticator app of the caller's own account",
  removeTotpAction: "removes the caller's own authenticator app (after step-up)",
  regenerateRecoveryCodesAction: "replaces the caller's own recovery codes (after step-up)",
  passkeyRegistrationOptionsAction: "a WebAuthn registration challenge for the caller's own account",
  registerPasskeyAction: "adds a passkey to the caller's own account",
  removePasskeyAction: "removes one of the caller's own passkeys (after step-up): another account's passkey id is not found",
  forgotPasswordAction: "runs before any session: emails a reset link to the address given, only if it has an account (the answer is the same either way)",
  resetPasswordAction: "runs before any session: sets the password of the account whose emailed single-use reset token it is given",
  confirmEmailAction: "confirms the address of the account whose emailed single-use verification token it is given",
  resendVerificationAction: "emails a new confirmation link to the caller's own address",
  setEmailLanguageAction: "sets the language of the caller's own account's emails (English or Spanish; anything else refused)",
};

test("every server action of the app is in a matrix: an application's, the operator's, or the self-scoped list", () => {
  const actions = serverActions();
  expect(actions.length).toBeGreaterThanOrEqual(45);
  const unlisted = actions
    .filter(({ file, name }) => {
      if (file.startsWith(ACTION_ROOT + path.sep)) return !MATRIX[name];
      if (file.startsWith(OPERATOR_ROOT + path.sep)) return !OPERATOR_MATRIX[name];
      return !SELF_SCOPED[name];
    })
    .map(({ file, name }) => `${file}#${name}`);
  expect(unlisted).toEqual([]);
  // The lists hold nothing that is no longer an action.
  const names = new Set(actions.map(({ name }) => name));
  expect([...Object.keys(MATRIX), ...Object.keys(OPERATOR_MATRIX), ...Object.keys(SELF_SCOPED)].filter((name) => !names.has(name))).toEqual([]);
});

type Context = { appId: string; liveKeyId: string; ownerId: string; memberId: string; deliveryId: string };

/** Each action's arguments (valid ones, so a refusal is about who asks) and whether only an owner may call it. */
const MATRIX: Record<string, { args: (c: Context) => unknown[]; ownerOnly: boolean }> = {
  createSessionAction: { args: (c) => [c.appId, { categories: ["labs"] }], ownerOnly: false },
  simulateAction: { args: (c) => [c.appId, { sessionId: "cs_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd", scenario: "baseline-adult" }], ownerOnly: false },
  sessionStatusAction: { args: (c) => [c.appId, "cs_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd"], ownerOnly: false },
  sandboxEventAction: { args: (c) => [c.appId, "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd", "records.advance"], ownerOnly: false },
  loadRecordsAction: { args: (c) => [c.appId, "u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd", "labs", ""], ownerOnly: false },
  revokeCredentialAction: { args: (c) => [c.appId, "cred_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1H"], ownerOnly: false },
  inviteAction: { args: (c) => [c.appId, { email: "someone@example.test", role: "owner" }], ownerOnly: true },
  revokeInvitationAction: { args: (c) => [c.appId, "inv_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd"], ownerOnly: true },
  changeRoleAction: { args: (c) => [c.appId, { developerId: c.memberId, role: "owner" }], ownerOnly: true },
  removeMemberAction: { args: (c) => [c.appId, c.ownerId], ownerOnly: true },
  renameAction: { args: (c) => [c.appId, { name: "Renamed by an intruder" }], ownerOnly: false },
  allowlistAction: { args: (c) => [c.appId, { categories: ["labs"] }], ownerOnly: false },
  syncModeAction: { args: (c) => [c.appId, { syncMode: "continuous" }], ownerOnly: false },
  redirectUrlsAction: { args: (c) => [c.appId, { redirectUrls: ["https://intruder.example.test/cb"] }], ownerOnly: false },
  requestProductionAction: { args: (c) => [c.appId, { description: "Going live with our hospital partner next month.", redirectUrls: ["https://intruder.example.test/cb"] }], ownerOnly: true },
  deleteApplicationAction: { args: (c) => [c.appId], ownerOnly: true },
  setWebhookUrlAction: { args: (c) => [c.appId, { webhookUrl: "https://intruder.example.test/hooks" }], ownerOnly: false },
  revealSecretAction: { args: (c) => [c.appId], ownerOnly: true },
  rotateSecretAction: { args: (c) => [c.appId], ownerOnly: true },
  sendTestEventAction: { args: (c) => [c.appId], ownerOnly: false },
  resendDeliveryAction: { args: (c) => [c.appId, c.deliveryId], ownerOnly: false },
  createKeyAction: { args: (c) => [c.appId, { environment: "live", name: "Intruder" }], ownerOnly: true },
  revokeKeyAction: { args: (c) => [c.appId, c.liveKeyId], ownerOnly: true },
  startRunAction: { args: (c) => [c.appId, { scenario: "baseline-adult" }], ownerOnly: false },
  runStatusAction: { args: (c) => [c.appId, "run_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd"], ownerOnly: false },
  advanceRunAction: { args: (c) => [c.appId, "run_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd"], ownerOnly: false },
  cancelRunAction: { args: (c) => [c.appId, "run_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd"], ownerOnly: false },
  rerunSourceAction: { args: (c) => [c.appId, "src_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd"], ownerOnly: false },
};

/** The production build's id of each server action, by `file#name` (Next.js's server reference manifest). */
function actionIds(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(path.join(".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const ids = new Map<string, string>();
  for (const [id, entry] of Object.entries(manifest.node)) {
    if (entry.filename && entry.exportedName) ids.set(`${path.normalize(entry.filename)}#${entry.exportedName}`, id);
  }
  return ids;
}

/** Calls a server action as the page's form would, with the signed-in browser's cookies; returns the answer's text. */
async function callAction(page: Page, actionId: string, pagePath: string, args: unknown[]): Promise<string> {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(`${origin}${pagePath}`, {
    headers: { "Next-Action": actionId, Accept: "text/x-component", "Content-Type": "text/plain;charset=UTF-8", Origin: origin },
    data: JSON.stringify(args),
    maxRedirects: 0,
  });
  return `${response.status()} ${await response.text()}`;
}

async function database(): Promise<pg.Client> {
  const url = (JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR!, "postgres", RUNTIME_FILE), "utf8")) as { url: string }).url;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** What the actions could change, read from the database. */
async function stateOf(client: pg.Client, appId: string) {
  const read = async (sql: string) => (await client.query(sql, [appId])).rows;
  return {
    application: await read(`SELECT name, "categoryAllowlist", "syncMode", "redirectUrls", "webhookUrl", "signingSecretEncrypted", status FROM "Application" WHERE id = $1`),
    keys: await read(`SELECT id, environment, "revokedAt" FROM "ApiKey" WHERE "applicationId" = $1 ORDER BY id`),
    members: await read(`SELECT "developerId", role FROM "ApplicationMember" WHERE "applicationId" = $1 ORDER BY "developerId"`),
    invitations: await read(`SELECT id FROM "Invitation" WHERE "applicationId" = $1`),
    productionRequests: await read(`SELECT id FROM "ProductionRequest" WHERE "applicationId" = $1`),
    sessions: await read(`SELECT id FROM "ConnectSession" WHERE "applicationId" = $1`),
    runs: await read(`SELECT id FROM "ConformanceRun" WHERE "applicationId" = $1`),
    deliveries: await read(`SELECT id FROM "WebhookDelivery" WHERE "applicationId" = $1 ORDER BY id`),
  };
}

test("every server action of an application's pages refuses another team and, where owner-only, a member; nothing changes", async ({ browser }) => {
  test.setTimeout(240_000);
  const actions = enumeratedActions();
  expect(actions.length).toBeGreaterThanOrEqual(25);
  expect(actions.map(({ name }) => name).filter((name) => !MATRIX[name])).toEqual([]);
  const ids = actionIds();
  const unbuilt = actions.filter(({ file, name }) => !ids.has(`${path.normalize(file)}#${name}`)).map(({ name }) => name);
  expect(unbuilt).toEqual([]);

  const [ownerPage, outsiderPage, memberPage] = await Promise.all([browser.newPage(), browser.newPage(), browser.newPage()]);
  const client = await database();
  try {
    const owner = await signUp(ownerPage, newDeveloper("iso-owner"));
    const member = await signUp(memberPage, newDeveloper("iso-member"));
    await signUp(outsiderPage, newDeveloper("iso-outsider"));
    const appId = await createApplication(ownerPage, "Isolation Matrix Clinic");
    const developerId = async (email: string) => (await client.query(`SELECT id FROM "Developer" WHERE email = $1`, [email])).rows[0].id as string;
    const context: Context = { appId, ownerId: await developerId(owner.email), memberId: await developerId(member.email), liveKeyId: "", deliveryId: "" };
    // The member joins the team as an accepted invitation leaves it; production is on as an operator's approval
    // leaves it, so that the owner holds a live key (created through the action itself) the others must not touch.
    await client.query(`INSERT INTO "ApplicationMember" ("applicationId", "developerId", role) VALUES ($1, $2, 'member')`, [appId, context.memberId]);
    await client.query(`UPDATE "Application" SET "productionEnabled" = true WHERE id = $1`, [appId]);
    // A member of an application in production must have a second factor (issue 57): the owner enrols, which also
    // gives it for the next few minutes, so the live key below needs no step-up.
    await enrolAuthenticator(ownerPage);
    const createKey = ids.get(`${path.normalize(path.join(ACTION_ROOT, "keys", "actions.ts"))}#createKeyAction`)!;
    expect(await callAction(ownerPage, createKey, `/dashboard/${appId}/keys`, [appId, { environment: "live", name: "Owner live" }])).toContain('"ok":true');
    context.liveKeyId = (await client.query(`SELECT id FROM "ApiKey" WHERE "applicationId" = $1 AND environment = 'live'`, [appId])).rows[0].id;
    // A real delivery of the owner's: a test event sent to a URL that never answers (.test names no host).
    const actionId = (folder: string, name: string) => ids.get(`${path.normalize(path.join(ACTION_ROOT, folder, "actions.ts"))}#${name}`)!;
    await client.query(`UPDATE "Application" SET "webhookUrl" = 'https://hooks.isolation.example.test/in' WHERE id = $1`, [appId]);
    expect(await callAction(ownerPage, actionId("webhooks", "sendTestEventAction"), `/dashboard/${appId}/webhooks`, [appId])).toContain('"ok":true');
    const delivery = (await client.query(`SELECT id, "eventId" FROM "WebhookDelivery" WHERE "applicationId" = $1`, [appId])).rows[0] as { id: string; eventId: string };
    context.deliveryId = delivery.id;
    const before = await stateOf(client, appId);

    for (const { file, name } of actions) {
      const id = ids.get(`${path.normalize(file)}#${name}`)!;
      const pagePath = `/dashboard/${appId}/${path.basename(path.dirname(file))}`;
      const args = MATRIX[name]!.args(context);
      const asOutsider = await callAction(outsiderPage, id, pagePath, args);
      expect(asOutsider, `${name} by another team`).toMatch(/^200 /);
      expect(asOutsider, `${name} by another team`).toContain("Application not found.");
      expect(asOutsider, `${name} by another team`).not.toContain("Isolation Matrix Clinic");
      if (MATRIX[name]!.ownerOnly) {
        const asMember = await callAction(memberPage, id, pagePath, args);
        expect(asMember, `${name} by a member`).toContain("Your role on this application does not allow");
      }
    }
    expect(await stateOf(client, appId)).toEqual(before);

    // Step-up (issue 57): with the owner's second factor given more than five minutes ago, the sensitive actions
    // replayed as the owner do nothing (they answer a redirect to confirm it is them), and no reveal is audited.
    await client.query(`UPDATE "DashboardSession" SET "secondFactorAt" = now() - interval '6 minutes' WHERE "developerId" = $1`, [context.ownerId]);
    for (const [folder, name, args] of [
      ["keys", "createKeyAction", [appId, { environment: "live", name: "Without step-up" }]],
      ["webhooks", "revealSecretAction", [appId]],
      ["webhooks", "rotateSecretAction", [appId]],
    ] as const) {
      const answer = await callAction(ownerPage, actionId(folder, name), `/dashboard/${appId}/${folder}`, [...args]);
      expect(answer, `${name} without a recent second factor`).not.toContain('"ok":true');
      expect(answer, `${name} without a recent second factor`).not.toContain("whsec_");
    }
    expect(await stateOf(client, appId)).toEqual(before);
    expect((await client.query(`SELECT id FROM "AuditEntry" WHERE action = 'webhook.secret_reveal' AND "applicationId" = $1`, [appId])).rows).toEqual([]);

    // Another account's session cannot be ended with its id.
    const ownerSession = (await client.query(`SELECT id FROM "DashboardSession" WHERE "developerId" = $1 AND "endedAt" IS NULL LIMIT 1`, [context.ownerId])).rows[0].id as string;
    const endSession = [...ids].find(([key]) => key.endsWith("#endSessionAction"))![1];
    expect(await callAction(outsiderPage, endSession, "/dashboard/account/security", [ownerSession])).toContain('"ok":false');
    expect((await client.query(`SELECT "endedAt" FROM "DashboardSession" WHERE id = $1`, [ownerSession])).rows[0].endedAt).toBeNull();

    // The delivery from another team's own application: its Re-send refuses a delivery that is not that
    // application's, and neither application gets a new delivery; the delivery page is not found either way.
    const otherAppId = await createApplication(outsiderPage, "Outsider Clinic");
    await client.query(`UPDATE "Application" SET "webhookUrl" = 'https://hooks.outsider.example.test/in' WHERE id = $1`, [otherAppId]);
    const resent = await callAction(outsiderPage, actionId("webhooks", "resendDeliveryAction"), `/dashboard/${otherAppId}/webhooks`, [otherAppId, delivery.id]);
    expect(resent).toContain('"ok":false,"error":"That delivery was not found."');
    expect(await stateOf(client, appId)).toEqual(before);
    expect((await stateOf(client, otherAppId)).deliveries).toEqual([]);
    for (const appPath of [appId, otherAppId]) {
      await outsiderPage.goto(`/dashboard/${appPath}/webhooks/${delivery.id}`);
      await expect(outsiderPage.getByRole("heading", { name: appPath === appId ? "Application not found" : "Delivery not found" })).toBeVisible();
      const html = await outsiderPage.content();
      expect(html).not.toContain(delivery.eventId);
      expect(html).not.toContain("Isolation Matrix Clinic");
    }
    // The member sees the delivery (so the refusals above are about the team, not a broken page), once enrolled: the
    // webhooks pages of an application in production need a second factor (issue 57).
    await enrolAuthenticator(memberPage);
    await memberPage.goto(`/dashboard/${appId}/webhooks/${delivery.id}`);
    await expect(memberPage.getByText(delivery.eventId).first()).toBeVisible();
  } finally {
    await client.end();
  }
});

test("an invitation joins only the address it was sent to: another signed-in developer holding its link is refused", async ({ browser }) => {
  test.setTimeout(120_000);
  const [ownerPage, outsiderPage] = await Promise.all([browser.newPage(), browser.newPage()]);
  const client = await database();
  try {
    await signUp(ownerPage, newDeveloper("inv-owner"));
    const outsider = await signUp(outsiderPage, newDeveloper("inv-outsider"));
    const appId = await createApplication(ownerPage, "Invitation Scope Clinic");
    const ids = actionIds();
    const invite = ids.get(`${path.normalize(path.join(ACTION_ROOT, "team", "actions.ts"))}#inviteAction`)!;
    const invited = await callAction(ownerPage, invite, `/dashboard/${appId}/team`, [appId, { email: "invited-colleague@example.test", role: "owner" }]);
    const link = /"link":"([^"]+)"/.exec(invited)?.[1];
    expect(link, invited).toBeDefined();
    const token = new URL(link!).pathname.split("/").at(-1)!;
    const accept = [...ids].find(([key]) => key.endsWith("#acceptInvitationAction"))![1];
    const answer = await callAction(outsiderPage, accept, new URL(link!).pathname, [token]);
    expect(answer).toContain("This invitation is for invited-colleague@example.test");
    const members = (await client.query(`SELECT d.email FROM "ApplicationMember" m JOIN "Developer" d ON d.id = m."developerId" WHERE m."applicationId" = $1`, [appId])).rows;
    expect(members.map((row: { email: string }) => row.email)).not.toContain(outsider.email);
    expect(members).toHaveLength(1);
  } finally {
    await client.end();
  }
});

/** The operator's actions (a deployment-wide role, not a team's), with arguments naming a real application. */
const OPERATOR_MATRIX: Record<string, (appId: string) => unknown[]> = {
  approveProductionAction: () => ["prq_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd", {}],
  refuseProductionAction: () => ["prq_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd", { reason: "Not an operator" }],
  suspendApplicationAction: (appId) => [appId, { reason: "Suspended by someone who is not an operator" }],
  reinstateApplicationAction: (appId) => [appId],
  previewProviderAction: () => [{ fhirBaseUrl: "https://fhir.example.test/r4" }],
  createProviderAction: () => [{ name: "Intruder Health", fhirBaseUrl: "https://fhir.example.test/r4", clientId: "x", clientSecret: "y" }],
  updateProviderAction: () => ["riverbend-health", { name: "Renamed by an intruder" }],
  setProviderDisabledAction: () => ["riverbend-health", true],
  testProviderAction: () => ["riverbend-health"],
  rerunSourceSyncAction: () => ["src_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd"],
  rerunProviderSyncsAction: () => ["riverbend-health"],
};

test("every operator action refuses a developer who is not an operator, and changes nothing", async ({ page }) => {
  test.setTimeout(120_000);
  const actions = enumeratedActions(OPERATOR_ROOT);
  expect(actions.map(({ name }) => name).filter((name) => !OPERATOR_MATRIX[name])).toEqual([]);
  const ids = actionIds();
  const client = await database();
  try {
    await signUp(page, newDeveloper("iso-not-operator"));
    const appId = await createApplication(page, "Not An Operator Clinic");
    const before = {
      application: (await client.query(`SELECT status FROM "Application" WHERE id = $1`, [appId])).rows,
      providers: (await client.query(`SELECT id, name, "disabledAt" FROM "Provider" ORDER BY id`)).rows,
    };
    for (const { file, name } of actions) {
      const id = ids.get(`${path.normalize(file)}#${name}`);
      expect(id, `${name} is in the build`).toBeDefined();
      const pagePath = `/dashboard/${path.relative(path.join("app", "(dashboard)", "dashboard"), path.dirname(file))}`;
      const answer = await callAction(page, id!, pagePath, OPERATOR_MATRIX[name]!(appId));
      // An operator's pages do not exist for anyone else: the same answer as for a page that is not there.
      expect(answer, name).toContain('"ok":false,"error":"The page was not found."');
    }
    expect({
      application: (await client.query(`SELECT status FROM "Application" WHERE id = $1`, [appId])).rows,
      providers: (await client.query(`SELECT id, name, "disabledAt" FROM "Provider" ORDER BY id`)).rows,
    }).toEqual(before);
  } finally {
    await client.end();
  }
});
