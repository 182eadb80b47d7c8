import { expect, test } from "@playwright/test";
import { createApplication, expectAccessible, expectNoHorizontalOverflow, signUp } from "./dashboard-helpers";

// Issue 26, item 5: unknown paths and mistyped patient links get a branded 404 with a way home, styled by the
// stylesheet alone, so the pages' CSP (inline styles only with a nonce) blocks nothing on it.

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`on a ${viewport.name}: a mistyped receipt link and an unknown path answer a styled 404 without CSP errors`, async ({ page }) => {
    await page.setViewportSize(viewport);
    // The 404 document itself is logged as a failed load; what must not appear is a style or script the CSP refused.
    const refused: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    for (const path of ["/consent/not-a-real-receipt-token", "/no/such/page"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("We could not find this page");
      await expect(page).toHaveTitle(/ · Chartkey$/);
      // The stylesheet applied: the way home is the teal button, not an unstyled link.
      const home = page.getByRole("link", { name: "Go to the Chartkey home page" });
      await expect(home).not.toHaveCSS("background-color", "rgba(0, 0, 0, 0)");
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page, path);
    }
    expect(refused).toEqual([]);
    await page.getByRole("link", { name: "Go to the Chartkey home page" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
}

test("a dashboard page that is not found is titled so, not after the page it would have been", async ({ page }) => {
  await signUp(page);
  const applicationId = await createApplication(page, "Titles");
  for (const [path, heading] of [
    ["/dashboard/app_doesnotexist000000000000000", "Application not found"],
    [`/dashboard/${applicationId}/webhooks/whd_doesnotexist0000000000`, "Delivery not found"],
    [`/dashboard/${applicationId}/usage/requests/999999999999`, "Request not found"],
  ] as const) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(`${heading} · Chartkey`);
  }
});
