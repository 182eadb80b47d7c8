import http from "node:http";
import type { AddressInfo } from "node:net";
import { platformDatabaseUrl } from "@/test/e2e-platform";
import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { OPERATOR_EMAIL } from "../playwright.config";
import { createApplication, createLiveKey, enrolAuthenticator, expectAccessible, expectNoHorizontalOverflow, giveAuthenticatorCode, gotoWithSecondFactor, keepScreenshot, newDeveloper, signIn, signUp, type Authenticator, type TestDeveloper } from "./dashboard-helpers";

// One operator account for the file (the deployment names its email): the first test signs it up, the next signs in.
test.describe.configure({ mode: "serial" });
const operatorAccount: TestDeveloper = { ...newDeveloper("operator"), email: OPERATOR_EMAIL };
// Its authenticator app, enrolled by the first test (an operator has a second factor, issue 57); the next type its codes.
let operatorAuthenticator: Authenticator | undefined;

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** Stores a webhook URL past the save check, as a URL saved before the check existed was. */
async function setStoredWebhookUrl(applicationId: string, webhookUrl: string): Promise<void> {
  const database = new pg.Client({ connectionString: platformDatabaseUrl() });
  await database.connect();
  try {
    await database.query(`UPDATE "Application" SET "webhookUrl" = $2 WHERE id = $1`, [applicationId, webhookUrl]);
  } finally {
    await database.end();
  }
}

test("an operator refuses, then approves a production request; the live key works until the application is suspended", async ({ page, browser, request }, testInfo) => {
  test.setTimeout(180_000);
  const appName = `Lab Trends ${Date.now().toString(36)}`;
  const group = (operator: Page) => operator.getByRole("group", { name: appName });

  // The developer asks for production.
  await signUp(page);
  const applicationId = await createApplication(page, appName);
  await expect(page.getByRole("link", { name: "Operator" })).toHaveCount(0);
  expect((await page.goto("/dashboard/operator"))?.status()).toBe(404);
  await page.goto(`/dashboard/${applicationId}/settings`);
  await page.getByLabel("What the application does").fill("Shows patients their lab trends between visits.");
  await page.getByLabel(/Production redirect URLs/).fill("http://labs.example/connected");
  await page.getByRole("button", { name: "Ask for production" }).click();
  await expect(page.getByText("Line 1: Use https (http is allowed only for localhost).")).toBeVisible();
  await page.getByLabel(/Production redirect URLs/).fill("https://labs.example/connected");
  await page.getByLabel("Contact email").fill("ops@labs.example");
  await page.getByRole("button", { name: "Ask for production" }).click();
  await expect(page.getByText(/Waiting for review/)).toBeVisible();

  // The operator (named by CHARTKEY_OPERATOR_EMAILS) refuses it with a reason.
  const operator = await newPage(browser);
  await signUp(operator, operatorAccount);
  operatorAuthenticator = await enrolAuthenticator(operator);
  await operator.getByRole("link", { name: "Operator" }).click();
  await expect(operator.getByRole("heading", { name: "Operator", level: 1 })).toBeVisible();
  await expect(group(operator)).toContainText("Shows patients their lab trends between visits.");
  await expect(group(operator)).toContainText("ops@labs.example");
  await group(operator).getByRole("button", { name: "Refuse production" }).click();
  await expect(group(operator).getByText(/Give a reason the developer can act on/)).toBeVisible();
  await group(operator).getByLabel(`Reason to refuse ${appName}`).fill("Link your privacy policy in the description.");
  await group(operator).getByRole("button", { name: "Refuse production" }).click();
  await expect(operator.getByText("Production refused; the developer sees your reason.")).toBeVisible();

  // The developer reads the reason and asks again.
  await page.reload();
  await expect(page.getByText("Operator's reason: Link your privacy policy in the description.")).toBeVisible();
  await expect(page.getByLabel(/Production redirect URLs/)).toHaveValue("https://labs.example/connected");
  await page.getByLabel("What the application does").fill("Shows patients their lab trends. Privacy policy: https://labs.example/privacy");
  await page.getByRole("button", { name: "Ask for production" }).click();
  await expect(page.getByText(/Waiting for review/)).toBeVisible();
  await expectAccessible(page);

  // Approved: a live key is created, shown once, and answers.
  await operator.reload();
  await group(operator).getByRole("button", { name: "Approve production" }).click();
  await expect(operator.getByText("Production approved: the application's live keys work now.")).toBeVisible();
  const liveKey = await createLiveKey(page, applicationId, "Production backend");
  const headers = { Authorization: `Bearer ${liveKey}` };
  expect(await (await request.get("/api/v1/app", { headers })).json()).toMatchObject({ environment: "live", productionEnabled: true, status: "active" });

  // Suspended: the key answers 403 app_suspended and the developer sees why; reinstated, it works again.
  await operator.reload();
  await group(operator).getByLabel(`Reason to suspend ${appName}`).fill("A patient reported misuse; we are reviewing.");
  await group(operator).getByRole("button", { name: "Suspend application" }).click();
  await expect(operator.getByText("Application suspended: its keys answer 403 app_suspended.")).toBeVisible();
  const suspended = await request.get("/api/v1/app", { headers });
  expect(suspended.status()).toBe(403);
  expect((await suspended.json()).error.code).toBe("app_suspended");
  await page.goto(`/dashboard/${applicationId}/settings`);
  await expect(page.getByText("Operator's reason: A patient reported misuse; we are reviewing.")).toBeVisible();

  // The operator page with its audit log, checked at a phone's and a desktop's width.
  await operator.reload();
  const audit = operator.getByRole("region", { name: "Operator actions, newest first" });
  await expect(audit.getByRole("row").filter({ hasText: applicationId })).toHaveCount(3);
  for (const width of [390, 1280]) {
    await operator.setViewportSize({ width, height: 900 });
    await expectAccessible(operator, `operator page at ${width}px`);
    await expectNoHorizontalOverflow(operator);
    await keepScreenshot(operator, testInfo, `operator-${width}`);
  }
  await group(operator).getByRole("button", { name: `Reinstate ${appName}` }).click();
  await expect(operator.getByText("Application reinstated.")).toBeVisible();
  expect((await request.get("/api/v1/app", { headers })).status()).toBe(200);
  await expect(audit.getByRole("row").filter({ hasText: applicationId })).toHaveCount(4);
  await operator.context().close();
});

/**
 * A live patient of the application connected to the provider (by its name), with two imports as the import job
 * records them: one completed, then one failed because the health system refused the source's tokens.
 */
async function seedImportHistory(applicationId: string, providerName: string): Promise<string> {
  const database = new pg.Client({ connectionString: platformDatabaseUrl() });
  await database.connect();
  const id = (prefix: string) => `${prefix}${Array.from({ length: 24 }, () => "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"[Math.floor(Math.random() * 56)]).join("")}`;
  try {
    const provider = (await database.query(`SELECT id FROM "Provider" WHERE name = $1`, [providerName])).rows[0].id as string;
    const [patient, subject, source] = [id("pat_"), id("u_"), id("src_")];
    await database.query(`INSERT INTO "Patient" (id, environment) VALUES ($1, 'live')`, [patient]);
    await database.query(`INSERT INTO "Subject" (id, "applicationId", environment, "patientId") VALUES ($1, $2, 'live', $3)`, [subject, applicationId, patient]);
    const error = `reauthorization_required: ${providerName} refused the source's refresh token (invalid_grant); the patient must sign in again.`;
    await database.query(
      `INSERT INTO "Source" (id, "patientId", "subjectId", "providerId", connected, "syncStatus", "lastError", "updatedAt") VALUES ($1, $2, $3, $4, true, 'partial', $5, now())`,
      [source, patient, subject, provider, error],
    );
    await database.query(
      `INSERT INTO "SourceImport" (id, "sourceId", "subjectId", status, "resourcesRead", upserts, trigger, "startedAt", "finishedAt") VALUES ($1, $2, $3, 'completed', 42, 40, 'connect', now() - interval '2 hours', now() - interval '2 hours' + interval '3 seconds')`,
      [id("imp_"), source, subject],
    );
    await database.query(
      `INSERT INTO "SourceImport" (id, "sourceId", "subjectId", status, code, error, trigger, "startedAt", "finishedAt") VALUES ($1, $2, $3, 'failed', 'reauthorization_required', $4, 'schedule', now() - interval '1 hour', now() - interval '1 hour' + interval '800 milliseconds')`,
      [id("imp_"), source, subject, error],
    );
    return source;
  } finally {
    await database.end();
  }
}

test("an operator looks up, adds, tests and disables a live health system; refused addresses are explained", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  // A SMART on FHIR server on this machine, which the deployment allows by CHARTKEY_PROVIDER_PRIVATE_HOSTS.
  let available = true;
  let base = "";
  const server = http.createServer((request, response) => {
    const json = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (!available) return void response.writeHead(503).end();
    if (request.url === "/fhir/.well-known/smart-configuration") {
      return json({ authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, code_challenge_methods_supported: ["S256"], capabilities: ["launch-standalone"] });
    }
    if (request.url === "/fhir/metadata") return json({ resourceType: "CapabilityStatement", fhirVersion: "4.0.1", software: { name: "E2E EHR" }, rest: [{ mode: "server", resource: [{ type: "Patient" }] }] });
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const name = `Riverside Health ${Date.now().toString(36)}`;

  // Not for other accounts.
  await signUp(page);
  expect((await page.goto("/dashboard/operator/providers"))?.status()).toBe(404);

  const operator = await newPage(browser);
  await signIn(operator, operatorAccount, "/dashboard/operator/providers");
  await expect(operator).toHaveURL(/\/sign-in\/verify/, { timeout: 20_000 });
  await giveAuthenticatorCode(operator, operatorAuthenticator);
  await expect(operator.getByRole("heading", { name: "Provider directory", level: 1 })).toBeVisible();
  // The redirect URI to register with the health system, with a copy button.
  await expect(operator.getByText(/Register this redirect URI with the health system/)).toBeVisible();
  await expect(operator.getByText(new URL("/connect/callback", operator.url()).href, { exact: true })).toBeVisible();
  await expect(operator.getByRole("button", { name: /Copy.*Redirect URI|Copy redirect URI/i })).toBeVisible();
  await operator.getByRole("textbox", { name: "FHIR base URL" }).fill("https://169.254.169.254/fhir");
  await operator.getByRole("button", { name: "Look up" }).click();
  await expect(operator.getByText(/Not usable: refused https:\/\/169\.254\.169\.254\/fhir.*the host is not a public address/)).toBeVisible();
  await operator.getByRole("textbox", { name: "FHIR base URL" }).fill(`${base}/fhir`);
  await operator.getByRole("button", { name: "Look up" }).click();
  await expect(operator.getByText(`Found a SMART on FHIR server at ${base}/fhir`)).toBeVisible();
  await expect(operator.getByRole("status").getByText("E2E EHR")).toBeVisible();
  await operator.getByLabel("Display name").fill(name);
  await operator.getByLabel("Client id", { exact: true }).fill("chartkey-e2e");
  await operator.getByLabel("Client secret", { exact: true }).fill("e2e-secret-value");
  await operator.getByRole("button", { name: "Add health system" }).click();
  await expect(operator.getByText("Health system added to the directory.")).toBeVisible();
  const card = operator.getByRole("group", { name });
  await expect(card).toContainText("secret stored (encrypted)");
  await expect(card).toContainText(`${base}/authorize`);
  await expect(operator.locator("body")).not.toContainText("e2e-secret-value");

  available = false;
  await card.getByRole("button", { name: `Test connection to ${name}` }).click();
  await expect(card.getByText("Last test failed")).toBeVisible();
  await expect(card).toContainText("answered HTTP 503");
  available = true;
  await card.getByRole("button", { name: `Disable ${name}` }).click();
  await expect(card.getByText("Disabled", { exact: true })).toBeVisible();
  // Its syncs across subjects: none yet; then two imports of one patient's source, one failed, as the history keeps them.
  const syncs = card.getByRole("region", { name: `Syncs of ${name}` });
  await expect(syncs.getByTestId("provider-success-rate")).toHaveText("No sync ended in the last 7 days");
  const applicationId = await createApplication(page, "Provider Sync Clinic");
  const sourceId = await seedImportHistory(applicationId, name);
  await operator.reload();
  await expect(syncs.getByTestId("provider-success-rate")).toHaveText("50% succeeded (1 of 2 in the last 7 days)");
  const failures = syncs.getByRole("table", { name: `Latest failed syncs of ${name}` });
  await expect(failures.getByRole("row")).toHaveCount(2);
  await expect(failures).toContainText("Provider Sync Clinic");
  await expect(failures).toContainText("reauthorization_required");
  await expect(failures).toContainText(`${name} refused the source's refresh token`);
  // The patient has not consented (seeded without a receipt): no source to re-run all of, and the failure's own
  // re-run is refused in words that name the health system.
  await expect(syncs.getByRole("button", { name: /^Re-run all/ })).toHaveCount(0);
  await failures.getByRole("button", { name: /^Re-run the sync of .* for subject u_/ }).click();
  await expect(operator.getByText(`${name} is disabled in the provider directory`)).toBeVisible();
  expect(sourceId).toMatch(/^src_/);
  // Checked as it loads: a toast fading out is mid-animation for axe's contrast check.
  await operator.reload();
  await expect(card.getByText("Last test failed")).toBeVisible();
  await expect(failures.getByRole("row")).toHaveCount(2);
  for (const width of [390, 1280]) {
    await operator.setViewportSize({ width, height: 900 });
    await expectAccessible(operator, `provider directory at ${width}px`);
    await expectNoHorizontalOverflow(operator);
    await keepScreenshot(operator, testInfo, `provider-directory-${width}`);
  }
  await operator.goto("/dashboard/operator");
  await expect(operator.getByRole("region", { name: "Operator actions, newest first" }).getByRole("row").filter({ hasText: "provider.create" }).first()).toBeVisible();
  await operator.context().close();
  server.closeAllConnections();
  server.close();
});

test("approval re-checks the webhook URL set after the request: the operator sees it and its verdict, and a refused one blocks approval", async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const appName = `Glucose Diary ${Date.now().toString(36)}`;
  const group = (operator: Page) => operator.getByRole("group", { name: appName });

  // Asked for production with no webhook URL; from then on the Webhooks page holds the URL to the live rules.
  await signUp(page);
  const applicationId = await createApplication(page, appName);
  await page.goto(`/dashboard/${applicationId}/settings`);
  await page.getByLabel("What the application does").fill("Keeps a diary of glucose readings for the patient's clinician.");
  await page.getByLabel(/Production redirect URLs/).fill("https://glucose.example/connected");
  await page.getByLabel("Contact email").fill("ops@glucose.example");
  await page.getByRole("button", { name: "Ask for production" }).click();
  await expect(page.getByText(/Waiting for review/)).toBeVisible();
  // Production requested: the application's secrets ask its members for a second factor first (issue 57).
  await gotoWithSecondFactor(page, `/dashboard/${applicationId}/webhooks`);
  await expect(page.getByText(/Production has been requested, so live rules apply from now on/)).toBeVisible();
  await page.getByLabel("Endpoint URL").fill("http://hooks.glucose.example/chartkey");
  await page.getByRole("button", { name: "Save URL" }).click();
  await expect(page.getByText(/The webhook URL is not allowed: live webhooks must use https\. Production has been requested/)).toBeVisible();

  const operator = await newPage(browser);
  await signIn(operator, operatorAccount, "/dashboard/operator");
  await expect(operator).toHaveURL(/\/sign-in\/verify/, { timeout: 20_000 });
  await giveAuthenticatorCode(operator, operatorAuthenticator);
  await expect(group(operator)).toContainText("no webhook URL: live events will not be delivered");

  // An http URL stored past the save check (as one saved before the rule was): shown refused, and approval is refused.
  await setStoredWebhookUrl(applicationId, "http://hooks.glucose.example/chartkey");
  await operator.reload();
  await expect(group(operator)).toContainText("http://hooks.glucose.example/chartkey — refused: live webhooks must use https");
  for (const width of [390, 1280]) {
    await operator.setViewportSize({ width, height: 900 });
    await expectAccessible(operator, `operator page with a refused webhook URL at ${width}px`);
    await expectNoHorizontalOverflow(operator);
    await keepScreenshot(operator, testInfo, `operator-webhook-refused-${width}`);
  }
  await group(operator).getByRole("button", { name: "Approve production" }).click();
  await expect(group(operator).getByRole("alert")).toContainText(
    "The application's webhook URL http://hooks.glucose.example/chartkey is refused by the live rules (live webhooks must use https)",
  );
  await operator.reload();
  await expect(group(operator).getByText("Production requested", { exact: true })).toBeVisible();

  // The developer sets a URL the live rules accept: shown accepted, and approval goes through.
  await page.reload();
  // Filled again until it holds: a fill before the form hydrates is overwritten by the hydrated value.
  const endpoint = page.getByLabel("Endpoint URL");
  await expect(async () => {
    await endpoint.fill("https://hooks.glucose.example/chartkey");
    await expect(endpoint).toHaveValue("https://hooks.glucose.example/chartkey", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.getByRole("button", { name: "Save URL" }).click();
  await expect(page.getByText("Webhooks now go to https://hooks.glucose.example/chartkey.")).toBeVisible();
  await operator.reload();
  await expect(group(operator)).toContainText("https://hooks.glucose.example/chartkey — accepted for live");
  await expectAccessible(operator, "operator page with an accepted webhook URL");
  await group(operator).getByRole("button", { name: "Approve production" }).click();
  await expect(operator.getByText("Production approved: the application's live keys work now.")).toBeVisible();
  await operator.context().close();

  // A live delivery to a URL the live rules refuse by its form fails at once, and the delivery log says how to fix it.
  await setStoredWebhookUrl(applicationId, "http://hooks.glucose.example/chartkey");
  await page.reload();
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText(/Test event evt_\S+ queued for delivery/)).toBeVisible();
  const deliveries = page.getByRole("region", { name: "Webhook deliveries" });
  await expect(async () => {
    await page.reload();
    await expect(deliveries.getByRole("row").filter({ hasText: "webhook.test" })).toContainText("failed", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const row = deliveries.getByRole("row").filter({ hasText: "webhook.test" });
  await expect(row).toContainText("refused: live webhooks must use https");
  await expect(row).toContainText("Set an https webhook URL on the Webhooks page, then resend.");
  await expectAccessible(page, "delivery log with a refused delivery");
});
