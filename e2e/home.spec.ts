import { expect, test } from "@playwright/test";

test("the home page loads in Chromium and links the demo, the reference and the dashboard", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Chartkey/);
  for (const href of ["/demo", "/docs", "/dashboard"]) {
    await expect(page.locator(`a[href="${href}"]`).first()).toBeVisible();
  }
});

test("the API served by the same start answers health with the service version", async ({ request }) => {
  const response = await request.get("/api/v1/health");
  expect(response.status()).toBe(200);
  expect(response.headers()["service-version"]).toBe("2026-09-22");
  expect(await response.json()).toMatchObject({ status: "ok" });
});
