import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { createApplication, createSandboxKey, expectAccessible, expectNoHorizontalOverflow, keepScreenshot, signUp } from "./dashboard-helpers";

/** The text of a download the page starts by clicking `link`. */
async function downloaded(page: Page, link: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: link, exact: true }).click()]);
  return { name: download.suggestedFilename(), text: await readFile((await download.path())!, "utf8") };
}

test("the Security page lists the application's audit trail, filters it and exports what the filter selects", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const developer = await signUp(page);
  const applicationId = await createApplication(page, "Audit Lab");
  await createSandboxKey(page, applicationId, "Audit key one");
  await createSandboxKey(page, applicationId, "Audit key two");
  await page.goto(`/dashboard/${applicationId}/settings`);
  await page.getByRole("radio", { name: /Continuous/ }).check();
  await page.getByRole("button", { name: "Save sync mode" }).click();
  await expect(page.getByText("Sync mode set to continuous.")).toBeVisible();

  await page.goto(`/dashboard/${applicationId}`);
  await page.getByRole("navigation", { name: "Application" }).getByRole("link", { name: "Security" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${applicationId}/security$`));
  const trail = page.getByRole("region", { name: "Audit trail, newest first" });
  const rows = trail.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  const syncRow = rows.filter({ hasText: "application.sync_mode_change" });
  await expect(syncRow).toContainText("syncMode: one_time");
  await expect(syncRow).toContainText("syncMode: continuous");
  await expect(syncRow).toContainText(developer.email);
  await expect(syncRow).toContainText("127.0.0.1");
  await expect(rows.filter({ hasText: "api_key.create" })).toHaveCount(2);
  await expect(rows.filter({ hasText: "name: Audit key two" })).toHaveCount(1);

  // A filter by action: the table and both exports hold exactly what it selects.
  await page.getByLabel("Action").selectOption("api_key.create");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=api_key\.create/);
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "application.sync_mode_change" })).toHaveCount(0);

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `security page at ${width}px`);
    await expectNoHorizontalOverflow(page);
    await keepScreenshot(page, testInfo, `security-${width}`);
  }

  const csv = await downloaded(page, "CSV");
  expect(csv.name).toMatch(new RegExp(`^chartkey-audit-${applicationId}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const lines = csv.text.split("\r\n").filter(Boolean);
  expect(lines[0]).toBe("id,createdAt,action,actorType,actorId,actorLabel,address,applicationId,targetType,targetId,before,after");
  expect(lines).toHaveLength(3);
  for (const line of lines.slice(1)) expect(line).toContain(`"api_key.create","developer"`);
  const json = await downloaded(page, "JSON");
  const exported = JSON.parse(json.text) as Array<{ action: string; applicationId: string; actorLabel: string; after: { name: string } }>;
  expect(exported.map((entry) => [entry.action, entry.applicationId, entry.actorLabel])).toEqual([
    ["api_key.create", applicationId, developer.email],
    ["api_key.create", applicationId, developer.email],
  ]);
  expect(exported.map((entry) => entry.after.name)).toEqual(["Audit key two", "Audit key one"]);

  // By actor and by date range.
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(rows).toHaveCount(3);
  await expect(page.getByLabel("Action")).toHaveValue("");
  await page.getByRole("searchbox", { name: "Actor" }).fill("someone-else@example.test");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("No matching entries")).toBeVisible();
  await page.getByRole("searchbox", { name: "Actor" }).fill(developer.email.toUpperCase());
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel("From (UTC)").fill(today);
  await page.getByLabel("To (UTC)").fill(today);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows).toHaveCount(3);
  await page.getByLabel("From (UTC)").fill("2999-01-01");
  await page.getByLabel("To (UTC)").fill("");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("No matching entries")).toBeVisible();
  const emptyCsv = await downloaded(page, "CSV");
  expect(emptyCsv.text.split("\r\n").filter(Boolean)).toHaveLength(1);

  // A field of the URL that does not parse (an edited date) is left out; the others still apply.
  await page.goto(`/dashboard/${applicationId}/security?action=api_key.create&from=not-a-date`);
  await expect(rows).toHaveCount(2);

  // Someone who is not a member reads neither the page nor the export.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await signUp(strangerPage);
  expect((await strangerPage.goto(`/dashboard/${applicationId}/security`))?.status()).toBe(404);
  expect((await strangerPage.request.get(`/dashboard/${applicationId}/security/export?format=csv`)).status()).toBe(404);
  expect((await page.request.get(`/dashboard/${applicationId}/security/export?format=xml`)).status()).toBe(400);
  await stranger.close();
});
