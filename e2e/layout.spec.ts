import { expect, test, type Locator, type Page } from "@playwright/test";
import { createApplication, createSandboxKey, expectAccessible, expectNoHorizontalOverflow, signUp } from "./dashboard-helpers";

// Issue 26, item 9: at 390 and 1280 px nothing a developer needs is pushed off-screen or clipped: the keys' Revoke
// and Revoked, every application tab, Usage's request ids and a request's detail. e2e/docs.spec.ts holds /docs to the
// same (the reference once Scalar has rendered, at both widths; every guide on a phone).

/** The element is wholly inside the window, horizontally (not scrolled out of a table or off the page). */
async function expectInView(page: Page, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  const what = (await locator.textContent()) ?? "element";
  expect(box.x, what).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, what).toBeLessThanOrEqual(width);
}

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`on a ${viewport.name}: keys, tabs and usage keep what matters on screen`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await signUp(page);
    const applicationId = await createApplication(page, "Layout Check");

    const tabs = page.getByRole("navigation", { name: "Application" }).getByRole("link");
    // Every section of the application, Conformance and Security included, on one row: on a phone the row scrolls
    // sideways (each tab is brought into view within it, never past the page's edge).
    await expect(tabs).toHaveCount(10);
    expect((await page.getByRole("navigation", { name: "Application" }).boundingBox())!.height).toBeLessThan(60);
    for (const tab of await tabs.all()) {
      await tab.scrollIntoViewIfNeeded();
      await expectInView(page, tab);
    }

    await createSandboxKey(page, applicationId, "Old backend");
    const key = await createSandboxKey(page, applicationId, "Backend");
    await page.getByRole("row", { name: "Old backend" }).getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
    const revoked = page.getByRole("row", { name: "Old backend" }).getByText("Revoked");
    await expect(revoked).toBeVisible();
    await expectInView(page, revoked);
    await expectInView(page, page.getByRole("row", { name: "Backend", exact: true }).getByRole("button", { name: "Revoke" }));
    await expectNoHorizontalOverflow(page);
    // The page itself, once the stacked toasts (whose own contrast e2e/dashboard-session.spec.ts checks) have gone.
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
    await expectAccessible(page, "keys");

    const called = await request.get("/api/v1/users/u_doesnotexist000000000000/records", { headers: { Authorization: `Bearer ${key}` } });
    const requestId = called.headers()["request-id"]!;
    await page.goto(`/dashboard/${applicationId}/usage`);
    const cell = page.getByRole("table", { name: "Recent requests" }).getByText(requestId);
    await expect(async () => {
      await page.reload();
      await expect(cell).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    if (viewport.width >= 1280) {
      // On a desktop the whole log fits its card: the request id is readable without scrolling the table.
      await expectInView(page, cell);
      const region = page.getByRole("region", { name: "Recent requests" });
      expect(await region.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    }
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, "usage");
    // Item 10: a row opens the request's detail, which fits the window too.
    await page.getByRole("row").filter({ hasText: requestId }).getByRole("link", { name: /Details of the request at/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "GET /users/{subject}/records" })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: requestId })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, "request detail");
  });
}
