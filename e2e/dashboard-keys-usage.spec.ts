import { expect, test } from "@playwright/test";
import { createApplication, expectAccessible, keepScreenshot, signUp } from "./dashboard-helpers";

test("create a key, call the API with it, see the calls in usage, revoke it and see it refused", async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Key Holder");

  await page.getByRole("navigation", { name: "Application" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel(/Live/)).toBeDisabled();
  await dialog.getByLabel("Key name").fill("Backend");
  await dialog.getByRole("button", { name: "Create key" }).click();
  await expect(dialog.getByRole("heading", { name: "Your new API key" })).toBeVisible();
  const key = (await dialog.locator("pre").first().textContent())!.trim();
  expect(key).toMatch(/^ck_test_/);
  await expect(dialog.locator("pre").nth(1)).toContainText(`Authorization: Bearer ${key}`);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, "key-created");
  await dialog.getByRole("button", { name: "Done" }).click();

  const row = page.getByRole("row", { name: "Backend" });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).toContainText("sandbox");

  const headers = { Authorization: `Bearer ${key}` };
  expect((await request.get("/api/v1/app", { headers })).status()).toBe(200);
  const missing = await request.get("/api/v1/users/u_doesnotexist000000000000/records", { headers });
  expect(missing.status()).toBe(404);

  await page.goto(`/dashboard/${applicationId}/usage`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("table", { name: "Recent requests" }).getByRole("row")).toHaveCount(3, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const log = page.getByRole("table", { name: "Recent requests" });
  await expect(log.getByRole("row").filter({ hasText: "/users/{subject}/records" })).toContainText("not_found");
  await expect(log.getByRole("row").filter({ hasText: "/app" })).toContainText("200");
  await expect(log).toContainText(missing.headers()["request-id"]!);
  await expect(page.getByRole("definition").filter({ hasText: /^2$/ })).toBeVisible();
  await page.getByText("Per day and key, as a table").click();
  const today = new Date().toISOString().slice(0, 10);
  await expect(page.getByRole("table", { name: "Requests per day and key" }).getByRole("row", { name: new RegExp(`${today} Backend 2 1 0`) })).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, "usage");

  // A row opens its detail: the path as requested, the status with its code, the key, the request id to copy.
  await log.getByRole("row").filter({ hasText: "not_found" }).getByRole("link", { name: /Details of the request at/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "GET /users/{subject}/records" })).toBeVisible();
  await expect(page).toHaveTitle("Request · Usage · Chartkey");
  const detail = page.getByRole("definition");
  await expect(detail.filter({ hasText: "/api/v1/users/u_doesnotexist000000000000/records" })).toBeVisible();
  await expect(detail.filter({ hasText: missing.headers()["request-id"]! })).toBeVisible();
  await expect(detail.filter({ hasText: "not_found" })).toContainText("404");
  await expect(detail.filter({ hasText: key.slice(0, 12) })).toContainText("Backend");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy: request id" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Request id copied to the clipboard" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Copied: request id" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(missing.headers()["request-id"]);
  await expectAccessible(page);
  await page.goto(`/dashboard/${applicationId}/usage/requests/999999999999`);
  await expect(page.getByRole("heading", { level: 1, name: "Request not found" })).toBeVisible();
  await page.goto(`/dashboard/${applicationId}/usage`);

  await page.getByLabel("Status").selectOption("4xx");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=4xx/);
  await expect(log.getByRole("row")).toHaveCount(2);
  await expect(log).toContainText("not_found");
  await expect(log.getByRole("row").filter({ hasText: "/app" })).toHaveCount(0);

  await page.goto(`/dashboard/${applicationId}/keys`);
  await page.getByRole("row", { name: "Backend" }).getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText(/Key “Backend” revoked/)).toBeVisible();
  await expect(page.getByRole("row", { name: "Backend" })).toContainText("Revoked");
  expect((await request.get("/api/v1/app", { headers })).status()).toBe(401);
});
