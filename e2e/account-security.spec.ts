import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { RUNTIME_FILE } from "@/lib/db";
import { checkAtBothWidths, enrolAuthenticator, giveAuthenticatorCode, newDeveloper, readEmail, signIn, signUp, type TestDeveloper } from "./dashboard-helpers";

// Issue 57: second factors (an authenticator app, passkeys, recovery codes), signed-in sessions a person can see
// and end, and step-up before sensitive actions.

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";
const SAFARI = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";

async function database(): Promise<pg.Client> {
  const url = (JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR!, "postgres", RUNTIME_FILE), "utf8")) as { url: string }).url;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** A page in its own browser context (its own cookies), as another device; `userAgent` names the device. */
async function device(browser: Browser, userAgent?: string): Promise<Page> {
  const context = await browser.newContext(userAgent ? { userAgent } : {});
  return context.newPage();
}

test("an authenticator app: enrolled with a code computed here, asked after the password, a recovery code works once", async ({ browser, page }) => {
  test.setTimeout(180_000);
  const developer = await signUp(page);
  await page.goto("/dashboard/account/security");
  await expect(page.getByRole("heading", { name: "Account security" })).toBeVisible();
  await checkAtBothWidths(page, "Account security before any factor", 1280);
  // The emails' language (this browser's English at sign-up), changed to Spanish: the next security notice is in it.
  const language = page.getByRole("group", { name: "Send my emails in" });
  await expect(language.getByRole("radio", { name: "English" })).toBeChecked();
  await language.getByRole("radio", { name: "Español" }).check();
  await page.getByRole("button", { name: "Save email language" }).click();
  await expect(page.getByText("Your emails will be in Spanish.")).toBeVisible();
  const authenticator = await enrolAuthenticator(page);
  expect(authenticator.recoveryCodes).toHaveLength(10);
  const notice = await readEmail(developer.email, /^Aviso de seguridad/);
  expect(notice.text).toContain("Se añadió un segundo factor a su cuenta");
  await page.reload();
  await expect(page.getByRole("group", { name: "Send my emails in" }).getByRole("radio", { name: "Español" })).toBeChecked();
  await checkAtBothWidths(page, "Account security with its recovery codes shown once", 1280);

  // Another device: the password is not enough; the second step asks for the app's code.
  const phone = await device(browser, FIREFOX);
  await signIn(phone, developer);
  await expect(phone).toHaveURL(/\/sign-in\/verify\?next=%2Fdashboard$/, { timeout: 20_000 });
  await expect(phone.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await checkAtBothWidths(phone, "second factor at sign-in", 1280);
  // Signed out until then: the dashboard sends it back to sign in (and so to this step).
  await phone.goto("/dashboard");
  await expect(phone).toHaveURL(/\/sign-in\/verify/);
  await phone.getByLabel("Code from your authenticator app").fill("000000");
  await phone.getByRole("button", { name: "Continue" }).click();
  await expect(phone.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  await giveAuthenticatorCode(phone, authenticator);
  await expect(phone).toHaveURL(/\/dashboard$/, { timeout: 20_000 });

  // A recovery code signs in once.
  const laptop = await device(browser, SAFARI);
  await signIn(laptop, developer);
  await expect(laptop).toHaveURL(/\/sign-in\/verify/, { timeout: 20_000 });
  await laptop.getByRole("button", { name: "Use a recovery code instead" }).click();
  await laptop.getByLabel("Recovery code").fill(authenticator.recoveryCodes[0]!.toLowerCase());
  await laptop.getByRole("button", { name: "Continue" }).click();
  await expect(laptop).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  const again = await device(browser);
  await signIn(again, developer);
  await expect(again).toHaveURL(/\/sign-in\/verify/, { timeout: 20_000 });
  await again.getByRole("button", { name: "Use a recovery code instead" }).click();
  await again.getByLabel("Recovery code").fill(authenticator.recoveryCodes[0]!);
  await again.getByRole("button", { name: "Continue" }).click();
  await expect(again.getByRole("alert").filter({ hasText: "That recovery code is not right, or it was already used." })).toBeVisible();

  // The sessions, by device; signing the Firefox one out ends it on its next click.
  await page.goto("/dashboard/account/security");
  const sessions = page.getByRole("table", { name: "Signed-in sessions" });
  await expect(sessions.getByRole("row", { name: /Firefox on Windows/ })).toBeVisible();
  await expect(sessions.getByRole("row", { name: /Safari on macOS/ })).toBeVisible();
  await checkAtBothWidths(page, "Account security with its sessions", 1280);
  await sessions.getByRole("row", { name: /Firefox on Windows/ }).getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Sign out" }).click();
  // The confirmation is a modal dialog: while it is open (the server action still running) everything behind it is
  // aria-hidden, so "no Firefox row" held at once and the phone's next page raced the action (reaching /dashboard
  // before the row was ended, 3 runs in 4). The action's toast and the closed dialog say the session has ended; the
  // Safari row being found shows the table is read again before the Firefox row's absence is checked.
  await expect(page.getByText("The session was signed out.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(sessions.getByRole("row", { name: /Safari on macOS/ })).toBeVisible();
  await expect(sessions.getByRole("row", { name: /Firefox on Windows/ })).toHaveCount(0);
  await phone.goto("/dashboard");
  await expect(phone).toHaveURL(/\/sign-in\?(.*&)?expired=1/);
  await laptop.goto("/dashboard");
  await expect(laptop).toHaveURL(/\/dashboard$/);

  // Sign out everywhere: every session ends, this one too.
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/sign-in/, { timeout: 20_000 });
  await laptop.goto("/dashboard");
  await expect(laptop).toHaveURL(/\/sign-in/);

  const client = await database();
  try {
    const actions = (await client.query(`SELECT action, address FROM "AuditEntry" WHERE "actorId" = (SELECT id FROM "Developer" WHERE email = $1)`, [developer.email])).rows as { action: string; address: string }[];
    for (const action of ["auth.second_factor_add", "auth.second_factor_failed", "auth.recovery_code_use", "auth.session_end"]) {
      expect(actions.map((row) => row.action), action).toContain(action);
    }
    expect(actions.find((row) => row.action === "auth.session_end")!.address).not.toBe("unknown");
  } finally {
    await client.end();
  }
});

test("a passkey on Chromium's virtual authenticator: enrolled, then signs in without a password", async ({ browser }) => {
  test.setTimeout(150_000);
  // WebAuthn needs a host name for its relying party (an IP address is none): the same server as localhost.
  const origin = `http://localhost:${new URL(test.info().project.use.baseURL!).port}`;
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  const developer: TestDeveloper = await signUp(page, newDeveloper("passkey"));
  await page.goto("/dashboard/account/security");
  await page.getByLabel("Passkey name").fill("Virtual key");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.locator("[role=status]").filter({ hasText: "Save these recovery codes now" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("Virtual key")).toBeVisible();
  // The authenticator holds one discoverable credential for this site, made through navigator.credentials.create.
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });

  // Signed out, then back in with the passkey alone.
  await page.locator("header").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByRole("button", { name: "Continue with a passkey" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });

  // With the password, the passkey is the second step.
  const other = await context.browser()!.newContext({ baseURL: origin });
  const otherPage = await other.newPage();
  const otherCdp = await other.newCDPSession(otherPage);
  await otherCdp.send("WebAuthn.enable");
  await signIn(otherPage, developer);
  await expect(otherPage).toHaveURL(/\/sign-in\/verify/, { timeout: 20_000 });
  await expect(otherPage.getByRole("button", { name: "Use a passkey" })).toBeVisible();
  await expect(otherPage.getByLabel("Recovery code")).toBeVisible();
});

test("step-up: a sensitive action replayed without a recent second factor does nothing; given again, it works and is audited", async ({ page }) => {
  test.setTimeout(150_000);
  const developer = await signUp(page, newDeveloper("stepup"));
  await page.goto("/dashboard");
  await page.getByRole("button", { name: /New application|Create your first application/ }).click();
  await page.getByLabel("Application name").fill("Step Up Clinic");
  await page.getByRole("button", { name: "Create application" }).click();
  await expect(page).toHaveURL(/\/dashboard\/app_[A-Za-z0-9]+$/);
  const appId = /\/dashboard\/(app_[A-Za-z0-9]+)$/.exec(page.url())![1]!;
  const client = await database();
  try {
    // Production is on, as an operator's approval leaves it: the owner must enrol before the keys page.
    await client.query(`UPDATE "Application" SET "productionEnabled" = true, status = 'active' WHERE id = $1`, [appId]);
    await page.goto(`/dashboard/${appId}/keys`);
    await expect(page).toHaveURL(/\/dashboard\/account\/security\?required=production&next=/);
    await expect(page.getByRole("heading", { name: "Set up a second factor to continue" })).toBeVisible();
    await checkAtBothWidths(page, "the page that asks for a second factor", 1280);
    const authenticator = await enrolAuthenticator(page);
    await page.getByRole("link", { name: "I saved them: continue where I was" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/${appId}/keys$`));

    // The factor given more than five minutes ago: revealing the secret asks again, and did nothing.
    await client.query(`UPDATE "DashboardSession" SET "secondFactorAt" = now() - interval '6 minutes' WHERE "developerId" = (SELECT id FROM "Developer" WHERE email = $1)`, [developer.email]);
    await page.goto(`/dashboard/${appId}/webhooks`);
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await expect(page).toHaveURL(/\/dashboard\/account\/confirm\?next=/, { timeout: 20_000 });
    await checkAtBothWidths(page, "step-up", 1280);
    const reveals = async () => Number((await client.query(`SELECT count(*) FROM "AuditEntry" WHERE action = 'webhook.secret_reveal' AND "applicationId" = $1`, [appId])).rows[0].count);
    expect(await reveals()).toBe(0);
    await giveAuthenticatorCode(page, authenticator);
    await expect(page).toHaveURL(new RegExp(`/dashboard/${appId}/webhooks$`), { timeout: 20_000 });
    await page.getByRole("button", { name: "Reveal secret" }).click();
    // The secret is whsec_ and base64 (with + and /), shown alone in its block, as the webhooks spec reads it.
    await expect(page.locator("pre").filter({ hasText: /^whsec_/ })).toBeVisible({ timeout: 15_000 });
    await expect.poll(reveals).toBe(1);
  } finally {
    await client.end();
  }
});
