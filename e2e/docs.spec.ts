import { expect, test } from "@playwright/test";

test("the API reference shows a platform operation and a demo operation", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  const platform = page.locator("section#platform");
  await expect(platform.getByRole("heading", { name: "Chartkey API" })).toBeVisible();
  await expect(platform.locator("article#platform-getApp")).toContainText("Resolve the application and environment of the calling key");
  await expect(platform.locator("article#platform-getApp")).toContainText("missing_api_key");

  const demo = page.locator("section#demo");
  await expect(demo.getByRole("heading", { name: "Chartkey demo API" })).toBeVisible();
  const records = demo.locator("article#demo-getDemoHealthRecord");
  await expect(records).toContainText("/users/{subject}/records");
  await expect(records).toContainText("consent_scope_exceeded");
});

test("the home page links to the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: /Keyless demo API/ })).toHaveAttribute("href", "/demo/v1");
  await expect(page.getByRole("link", { name: /Dashboard/ })).toHaveAttribute("href", "/dashboard");
  await page.getByRole("link", { name: /API reference/ }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
});
