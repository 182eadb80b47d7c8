import { expect, test, type Browser, type Page } from "@playwright/test";
import { createApplication, createSandboxKey, expectAccessible, gotoWithSecondFactor, keepScreenshot, newDeveloper, signUp, type TestDeveloper } from "./dashboard-helpers";

async function signedUpPage(browser: Browser, developer?: TestDeveloper): Promise<{ page: Page; developer: TestDeveloper; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { page, developer: await signUp(page, developer), close: () => context.close() };
}

test("settings: rename, allowlist, sync mode, redirect URLs and production, each saved and explained", async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Settings Lab");
  await page.goto(`/dashboard/${applicationId}/settings`);
  await expectAccessible(page);

  await page.getByLabel("Application name").fill("Settings Lab Renamed");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Application renamed.")).toBeVisible();

  await page.getByRole("checkbox", { name: /Claims/ }).uncheck();
  await page.getByRole("button", { name: "Save allowlist" }).click();
  await expect(page.getByText(/Category allowlist saved/)).toBeVisible();

  await page.getByRole("radio", { name: /Continuous/ }).check();
  await page.getByRole("button", { name: "Save sync mode" }).click();
  await expect(page.getByText("Sync mode set to continuous.")).toBeVisible();

  const redirects = page.getByLabel("One URL per line (up to 10)");
  await redirects.fill("http://example.com/back");
  await page.getByRole("button", { name: "Save redirect URLs" }).click();
  await expect(page.getByText("Line 1: Use https (http is allowed only for localhost).")).toBeVisible();
  await redirects.fill("https://app.example.com/back\nhttp://localhost:5173/done");
  await page.getByRole("button", { name: "Save redirect URLs" }).click();
  await expect(page.getByText("Redirect URLs saved.")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Application name")).toHaveValue("Settings Lab Renamed");
  await expect(page.getByRole("checkbox", { name: /Claims/ })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: /Lab results/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /Continuous/ })).toBeChecked();
  await expect(redirects).toHaveValue("https://app.example.com/back\nhttp://localhost:5173/done");

  // What the API reports for the application is what the settings saved.
  const key = await createSandboxKey(page, applicationId, "Settings probe");
  const app = await (await request.get("/api/v1/app", { headers: { Authorization: `Bearer ${key}` } })).json();
  expect(app).toMatchObject({ name: "Settings Lab Renamed", syncMode: "continuous", productionEnabled: false });
  expect(app.categoryAllowlist).not.toContain("claims");

  // Production is asked for here and decided by an operator (e2e/operator.spec.ts follows it to approval).
  await page.goto(`/dashboard/${applicationId}/settings`);
  await page.getByLabel("What the application does").fill("Too short");
  await page.getByRole("button", { name: "Ask for production" }).click();
  await expect(page.getByText("Describe what the application does (at least 20 characters).")).toBeVisible();
  await expect(page.getByLabel(/Production redirect URLs/)).toHaveValue("https://app.example.com/back");
  await page.getByLabel("What the application does").fill("A settings lab that reads lab results for its users.");
  await page.getByRole("button", { name: "Ask for production" }).click();
  await expect(page.getByText(/Waiting for review/)).toBeVisible();
  await keepScreenshot(page, testInfo, "settings-production-requested");
  // Production requested: the keys page asks the application's members for a second factor first (issue 57).
  await page.goto(`/dashboard/${applicationId}/keys`);
  await expect(page).toHaveURL(/\/dashboard\/account\/security\?required=production&next=/);
  await gotoWithSecondFactor(page, `/dashboard/${applicationId}/keys`);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("dialog").getByText("Ask for production in Settings first; an operator approves it.")).toBeVisible();
  await page.keyboard.press("Escape");
  await page.goto(`/dashboard/${applicationId}/settings`);
  await keepScreenshot(page, testInfo, "settings");
});

test("invite a member: they join through the link with limited rights; the owner deletes the application", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Shared Workspace");
  const teammate = newDeveloper("teammate");

  await page.goto(`/dashboard/${applicationId}/team`);
  await expectAccessible(page);
  await page.getByLabel("Email address").fill(teammate.email);
  await page.getByRole("button", { name: "Create invitation" }).click();
  const link = (await page.getByRole("status").locator("pre").textContent())!.trim();
  expect(link).toMatch(/\/invitations\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("row", { name: `Invitation for ${teammate.email}` })).toBeVisible();
  await keepScreenshot(page, testInfo, "team");

  // Someone else signed in cannot use it; the invited address can, once.
  const stranger = await signedUpPage(browser);
  await stranger.page.goto(link);
  await expect(stranger.page.getByText(`Sign out and sign in (or sign up) as ${teammate.email} to accept it.`)).toBeVisible();
  await expect(stranger.page.getByRole("button", { name: "Accept invitation" })).toHaveCount(0);
  // A link that is not an invitation is a real 404.
  expect((await stranger.page.goto(`${link.slice(0, -4)}AAAA`))?.status()).toBe(404);
  await expect(stranger.page.getByText("Invitation not found")).toBeVisible();
  await stranger.close();

  const member = await signedUpPage(browser, teammate);
  await member.page.goto(link);
  await expect(member.page.getByRole("heading", { name: "Join Shared Workspace" })).toBeVisible();
  await expectAccessible(member.page);
  await member.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(member.page).toHaveURL(new RegExp(`/dashboard/${applicationId}\\?joined=1$`));
  await expect(member.page.getByText("Member", { exact: true })).toBeVisible();
  await member.page.goto(link);
  await expect(member.page.getByText("This invitation was already accepted.")).toBeVisible();

  // A member builds but cannot delete, go live, create live keys or manage the team.
  await member.page.goto(`/dashboard/${applicationId}/settings`);
  await expect(member.page.getByText("Only owners delete an application.")).toBeVisible();
  await expect(member.page.getByRole("button", { name: "Delete application" })).toBeDisabled();
  await expect(member.page.getByText("Only owners ask for production.")).toBeVisible();
  await member.page.goto(`/dashboard/${applicationId}/team`);
  await expect(member.page.getByText("Only owners invite developers.")).toBeVisible();
  await expect(member.page.getByRole("combobox", { name: /Role of/ })).toHaveCount(0);
  const memberKey = await createSandboxKey(member.page, applicationId, "Member sandbox key");
  expect(memberKey).toMatch(/^ck_test_/);
  await member.page.getByRole("button", { name: "Create key" }).click();
  await expect(member.page.getByRole("dialog").getByText("Only owners create live keys.")).toBeVisible();
  await member.page.keyboard.press("Escape");

  await page.goto(`/dashboard/${applicationId}/team`);
  await expect(page.getByRole("row", { name: teammate.email })).toContainText("Member");

  await page.goto(`/dashboard/${applicationId}/settings`);
  await page.getByRole("button", { name: "Delete application" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm.getByRole("button", { name: "Delete forever" })).toBeDisabled();
  await confirm.getByLabel(/Type Shared Workspace to confirm/).fill("Shared Workspace");
  await confirm.getByRole("button", { name: "Delete forever" }).click();
  await expect(page).toHaveURL(/\/dashboard\?deleted=1$/);
  await member.page.goto(`/dashboard/${applicationId}`);
  await expect(member.page.getByRole("heading", { name: "Application not found" })).toBeVisible();
  await member.close();
});

test("another developer can open none of an application's pages, and a forged action on it is refused", async ({ page, browser, request }) => {
  test.setTimeout(90_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Private Practice");
  const key = await createSandboxKey(page, applicationId, "Owner key");
  const keyId = await page.getByRole("row", { name: "Owner key" }).getAttribute("data-key-id");
  expect(keyId).toMatch(/^key_/);

  const other = await signedUpPage(browser);
  for (const section of ["", "/keys", "/webhooks", "/sandbox", "/usage", "/team", "/settings"]) {
    const response = await other.page.goto(`/dashboard/${applicationId}${section}`);
    expect(response?.status(), section).toBe(404);
    await expect(other.page.getByRole("heading", { name: "Application not found" }), section).toBeVisible();
    await expect(other.page.getByText("Private Practice")).toHaveCount(0);
  }

  // The other developer revokes a key of their own application, with the request rewritten to name the victim's
  // application and key: the action checks membership itself, whatever ids the browser sends.
  const ownApplication = await createApplication(other.page, "Own App");
  await createSandboxKey(other.page, ownApplication, "Own key");
  const ownKeyId = await other.page.getByRole("row", { name: "Own key" }).getAttribute("data-key-id");
  await other.page.route("**/dashboard/**", async (route) => {
    const body = route.request().postData();
    if (route.request().method() !== "POST" || !body?.includes(ownKeyId!)) return route.continue();
    await route.continue({ postData: body.replaceAll(ownApplication, applicationId).replaceAll(ownKeyId!, keyId!) });
  });
  await other.page.getByRole("row", { name: "Own key" }).getByRole("button", { name: "Revoke" }).click();
  await other.page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(other.page.getByText("Application not found.")).toBeVisible();
  expect((await request.get("/api/v1/app", { headers: { Authorization: `Bearer ${key}` } })).status()).toBe(200);
  await other.close();
});
