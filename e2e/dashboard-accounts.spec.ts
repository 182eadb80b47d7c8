import { expect, test } from "@playwright/test";
import { createApplication, expectAccessible, expectNoHorizontalOverflow, keepScreenshot, newDeveloper, signIn, signUp } from "./dashboard-helpers";

test("signed-out visitors are sent to sign in, and come back where they were going", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fdashboard$/);
  await expect(page.getByRole("heading", { name: "Sign in to the dashboard" })).toBeVisible();
  await expectAccessible(page);

  const developer = await signUp(page);
  const applicationId = await createApplication(page, "Return Trip");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.goto(`/dashboard/${applicationId}/keys`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel("Email address").fill(developer.email);
  await page.getByLabel("Password").fill(developer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${applicationId}/keys$`));
});

test("sign up, an empty dashboard that says what to do, and a first application", async ({ page }, testInfo) => {
  await page.goto("/sign-up");
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, "sign-up");
  await signUp(page);
  await expect(page.getByText("No applications yet")).toBeVisible();
  await expectAccessible(page);

  const applicationId = await createApplication(page, "Care Companion");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText("Care Companion")).toBeVisible();
  await expect(page.getByText(applicationId)).toBeVisible();
  await expect(page.getByRole("link", { name: "API keys" }).first()).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, "application-overview");

  await page.goto("/dashboard");
  await expect(page.getByRole("link", { name: /Care Companion/ })).toBeVisible();
  await keepScreenshot(page, testInfo, "applications");
});

test("the forms explain what is wrong: bad input, a taken email, a wrong password", async ({ page }) => {
  const developer = newDeveloper();
  await page.goto("/sign-up");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter your name.")).toBeVisible();
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Use at least 10 characters.")).toBeVisible();

  await signUp(page, developer);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Someone Else");
  await page.getByLabel("Email address").fill(developer.email.toUpperCase());
  await page.getByLabel("Password").fill("another-long-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();

  await signIn(page, { ...developer, password: "not-the-password" });
  await expect(page.getByRole("alert").filter({ hasText: "do not match" })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
});

test("the dashboard fits a phone", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUp(page);
  await createApplication(page, "Pocket");
  await expectNoHorizontalOverflow(page);
  await expect(page.getByRole("navigation", { name: "Application" })).toBeVisible();
  await keepScreenshot(page, testInfo, "overview-phone");
});

test("repeated wrong passwords throttle the guesser's address for the account, while the owner signs in from elsewhere", async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  const developer = await signUp(page);
  const guesser = await browser.newContext();
  const attempt = await guesser.newPage();
  for (let failure = 0; failure < 5; failure++) {
    await signIn(attempt, { ...developer, password: `wrong-${failure}` });
    await expect(attempt.getByRole("alert").filter({ hasText: "do not match" })).toBeVisible();
  }
  // From the guesser's address even the right password is refused now, and the form says why.
  await signIn(attempt, developer);
  await expect(attempt.getByRole("alert").filter({ hasText: "Too many failed sign-in attempts for this account from your network address." })).toBeVisible();
  await expect(attempt).toHaveURL(/\/sign-in/);
  await guesser.close();

  // The owner, from another address (the platform over IPv6 loopback: ::1 instead of 127.0.0.1), is not locked out.
  const elsewhere = await browser.newContext({ baseURL: `http://[::1]:${new URL(baseURL!).port}` });
  const owner = await elsewhere.newPage();
  await signIn(owner, developer);
  await expect(owner).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  await elsewhere.close();
});

test("a sign-in or sign-up submitted before the page's script runs never puts the password in a URL", async ({ browser, baseURL }) => {
  // A slow phone submits the server-rendered form before hydration: the browser then sends the form itself.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  const password = "never-in-a-url-7Q4b";
  for (const path of ["/sign-in", "/sign-up"]) {
    const sent: { method: string; url: string }[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest()) sent.push({ method: request.method(), url: request.url() });
    });
    await page.goto(path);
    await page.getByLabel("Email address").fill("early-submit@example.test");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: path === "/sign-in" ? "Sign in" : "Create account" }).click();
    await page.waitForLoadState();
    const submitted = sent.filter((request) => new URL(request.url).pathname === path).at(-1);
    expect(submitted?.method, `the ${path} form's own submission`).toBe("POST");
    for (const request of sent) expect(request.url).not.toContain(password);
    expect(page.url()).not.toContain(password);
    page.removeAllListeners("request");
  }
  await context.close();
});
