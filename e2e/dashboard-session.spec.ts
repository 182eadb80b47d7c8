import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { animationsSettled, checkAtBothWidths, createApplication, signUp } from "./dashboard-helpers";

// Issue 26: a developer never meets a silent failure. Item 6: an action after the session ended sends the person to
// sign in and back to the page they were on. Item 10: success toasts pass contrast and leave Sign out uncovered; the
// not-found panel has an h1; there is a favicon.

test("on a phone and a desktop: an action after the session ended goes to sign in and back, nothing changed", async ({ page, context }) => {
  test.setTimeout(120_000);
  const developer = await signUp(page);
  const applicationId = await createApplication(page, "Session Keeper");
  const keysPage = `/dashboard/${applicationId}/keys`;
  await page.goto(keysPage);

  // A success toast at each width: readable (axe's contrast rule on the toast itself) and clear of the header's Sign out.
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("dialog").getByLabel("Key name").fill(`First at ${width}`);
    await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
    const toast = page.locator("[data-sonner-toast][data-type=success]").last();
    await expect(toast).toHaveAttribute("data-mounted", "true");
    // Measured once its entrance has finished (mid-fade its text is lighter than it will be).
    await animationsSettled(toast);
    // Its box first: the toast leaves after a few seconds, and on a loaded machine axe can take longer than that.
    const toastBox = (await toast.boundingBox())!;
    // Measured until one whole analysis ran while the toast was still shown: on a loaded machine an analysis can
    // overlap the toast's exit fade, whose lighter text is not what a person reads; a toast that left first fails.
    await expect
      .poll(
        async () => {
          const contrast = await new AxeBuilder({ page }).include("[data-sonner-toast]").withRules(["color-contrast"]).analyze();
          const stillShown = (await toast.getAttribute("data-removed")) === "false" && (await toast.isVisible());
          return stillShown ? contrast.violations : ["the toast left before one analysis ran while it was shown"];
        },
        { timeout: 15_000 },
      )
      .toEqual([]);
    // (The open dialog hides the header from the accessibility tree, so found by its text.)
    const signOutBox = (await page.locator("header button", { hasText: "Sign out" }).boundingBox())!;
    expect(toastBox.y > signOutBox.y + signOutBox.height || toastBox.y + toastBox.height < signOutBox.y, `toast clear of Sign out at ${width}px`).toBe(true);
    await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
  }

  // The session ends (cookie expired or signed out in another tab) while the page stays open.
  await context.clearCookies();
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("dialog").getByLabel("Key name").fill("Second");
  await page.getByRole("dialog").getByRole("button", { name: "Create key" }).click();
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=${encodeURIComponent(keysPage)}&expired=1$`));
  await expect(page.getByRole("status")).toContainText("Your session ended, so nothing was changed");
  // The page itself, once the keys' toasts (checked above, and mid-fade while they leave) have gone.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await checkAtBothWidths(page, "sign-in after the session ended", 390);

  await page.getByLabel("Email address").fill(developer.email);
  await page.getByLabel("Password").fill(developer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${keysPage}$`), { timeout: 20_000 });
  for (const width of [390, 1280]) await expect(page.getByRole("row", { name: new RegExp(`First at ${width}`) })).toBeVisible();
  await expect(page.getByRole("row", { name: /Second/ })).toHaveCount(0);
});

test("a not-found panel is the page's h1 on a phone and a desktop, and pages have a favicon", async ({ page, request }) => {
  await signUp(page);
  const applicationId = await createApplication(page, "Icon Holder");
  const response = await page.goto(`/dashboard/${applicationId}/webhooks/whd_doesnotexist0000000000`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Delivery not found" })).toBeVisible();
  await checkAtBothWidths(page, "delivery not found", 390);
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  const served = await request.get(icon!);
  expect([served.status(), served.headers()["content-type"]]).toEqual([200, "image/svg+xml"]);
});
