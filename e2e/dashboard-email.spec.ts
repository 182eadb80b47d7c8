import { expect, test, type Browser } from "@playwright/test";
import { OUTBOX_OPERATOR_EMAIL } from "../playwright.config";
import { checkAtBothWidths, createApplication, emailedPath, enrolAuthenticator, newDeveloper, readEmail, signIn, signUp } from "./dashboard-helpers";

// Email that works (issue 57, point 4), read from a real SMTP server: the browser tests' platform sends every email
// to e2e/mail-sink.setup.ts (CHARTKEY_SMTP_URL in playwright.config.ts), and each test follows the links it finds.

async function freshPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test("a forgotten password: the emailed link sets a new one, ends every session, and the new password signs in", async ({ browser }) => {
  // Sign-ups and sign-ins (argon2id), emailed links, axe at two widths: 31-39 s on this 2-core machine under load.
  test.setTimeout(90_000);
  const owner = await freshPage(browser);
  const developer = await signUp(owner.page);

  const visitor = await freshPage(browser);
  const page = visitor.page;
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await checkAtBothWidths(page, "forgot password page", 1280);
  // An address without an account gets the same answer.
  await page.getByLabel("Email address").fill("no-account-here@example.test");
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  const unknownAnswer = (await page.getByRole("status").textContent())!.replace("no-account-here@example.test", "ADDRESS");
  await page.goto("/forgot-password");
  await page.getByLabel("Email address").fill(developer.email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByRole("status")).toContainText(`If ${developer.email} has a Chartkey account, we sent it a link`);
  expect((await page.getByRole("status").textContent())!.replace(developer.email, "ADDRESS")).toBe(unknownAnswer);

  const email = await readEmail(developer.email, /^Reset your Chartkey password$/);
  expect(email.html).toContain("Choose a new password");
  await page.goto(emailedPath(email, "/reset-password/"));
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await checkAtBothWidths(page, "reset password page", 390);
  await page.getByLabel("New password", { exact: true }).fill("a-brand-new-password-1");
  await page.getByLabel("Repeat the new password").fill("a-brand-new-password-1");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page).toHaveURL(/\/sign-in\?reset=1$/, { timeout: 20_000 });
  await expect(page.getByRole("status")).toContainText("Your password is changed");
  await signIn(page, { ...developer, password: "a-brand-new-password-1" });
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  // The session opened before the reset was ended.
  await owner.page.goto("/dashboard");
  await expect(owner.page).toHaveURL(/\/sign-in/);
  // The link worked once.
  await page.goto(emailedPath(email, "/reset-password/"));
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await owner.context.close();
  await visitor.context.close();
});

test("a new account confirms its address from the emailed link before it may invite, and the invitation is emailed", async ({ browser }) => {
  // Sign-ups and sign-ins (argon2id), emailed links, axe at two widths: 31-39 s on this 2-core machine under load.
  test.setTimeout(90_000);
  const { page, context } = await freshPage(browser);
  const developer = await signUp(page, newDeveloper("unverified"), { verify: false });
  const banner = page.getByRole("region", { name: "Confirm your email address" });
  await expect(banner).toContainText("cannot create live keys or invite team members");
  const appId = await createApplication(page, "Mail Check");
  await page.goto(`/dashboard/${appId}/team`);
  await checkAtBothWidths(page, "team page with the unverified banner", 1280);
  const teammate = newDeveloper("invitee");
  await page.getByRole("textbox", { name: "Email address" }).fill(teammate.email);
  await page.getByRole("button", { name: "Create invitation" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Confirm your email address first" })).toBeVisible();

  await banner.getByRole("button", { name: "Send the link again" }).click();
  await expect(banner.getByRole("status")).toContainText("We sent a new confirmation link");
  const confirmation = await readEmail(developer.email, /^Confirm your email address for Chartkey$/);
  await page.goto(emailedPath(confirmation, "/verify-email/"));
  await checkAtBothWidths(page, "confirm email page", 390);
  await page.getByRole("button", { name: "Confirm my email address" }).click();
  await expect(page.getByRole("status")).toContainText(`${developer.email} is confirmed.`);

  await page.goto(`/dashboard/${appId}/team`);
  await expect(page.getByRole("region", { name: "Confirm your email address" })).toHaveCount(0);
  await page.getByRole("textbox", { name: "Email address" }).fill(teammate.email);
  await page.getByRole("button", { name: "Create invitation" }).click();
  await expect(page.getByText(`We emailed this link to`)).toBeVisible();
  const invitation = await readEmail(teammate.email, /invited you to Mail Check on Chartkey$/);
  const invitee = await freshPage(browser);
  await signUp(invitee.page, teammate);
  await invitee.page.goto(emailedPath(invitation, "/invitations/"));
  await expect(invitee.page.getByRole("heading", { name: "Join Mail Check" })).toBeVisible();
  await context.close();
  await invitee.context.close();
});

test("the outbox page, for an operator: axe at both widths", async ({ browser }) => {
  const { page, context } = await freshPage(browser);
  await signUp(page, { ...newDeveloper("outbox"), email: OUTBOX_OPERATOR_EMAIL });
  await enrolAuthenticator(page);
  await page.goto("/dashboard/outbox");
  await expect(page.getByRole("heading", { name: "Outbox" })).toBeVisible();
  await expect(page.getByText("This deployment sends email over SMTP")).toBeVisible();
  await checkAtBothWidths(page, "outbox page", 1280);
  await context.close();
});
