import { expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import axe from "axe-core";
import { totpCode } from "@/test/totp-reference";

export type TestDeveloper = { name: string; email: string; password: string };

let counter = 0;

/** A developer no other test uses (tests share one platform and run in parallel). */
export function newDeveloper(label = "dev"): TestDeveloper {
  const unique = `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { name: `Test ${label}`, email: `${label}-${unique}@example.test`, password: `pw-${unique}-long-enough` };
}

/** Signs a new developer up through the form and waits for the dashboard, then (unless `verify: false`) confirms the address from the emailed link. */
export async function signUp(page: Page, developer: TestDeveloper = newDeveloper(), options: { verify?: boolean } = {}): Promise<TestDeveloper> {
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(developer.name);
  await page.getByLabel("Email address").fill(developer.email);
  await page.getByLabel("Password").fill(developer.password);
  await page.getByRole("button", { name: "Create account" }).click();
  // argon2id hashing, then verifying for the sign-in: seconds on a loaded 2-core machine.
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 20_000 });
  if (options.verify !== false) await confirmEmail(page, developer.email);
  return developer;
}

export type ReceivedEmail = { to: string[]; subject: string; text: string; html: string; receivedAt: number };

/**
 * The newest email to `to` whose subject matches, as the tests' SMTP server received it (e2e/mail-sink.setup.ts
 * writes each message to E2E_MAIL_DIR); waits for it to arrive.
 */
export async function readEmail(to: string, subject: RegExp, timeout = 20_000): Promise<ReceivedEmail> {
  const dir = process.env.E2E_MAIL_DIR!;
  let found: ReceivedEmail | undefined;
  await expect
    .poll(
      () => {
        const messages = readdirSync(dir)
          .sort()
          .map((file) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ReceivedEmail)
          .filter((message) => message.to.includes(to.toLowerCase()) && subject.test(message.subject));
        found = messages.at(-1);
        return found !== undefined;
      },
      { timeout, message: `an email to ${to} with a subject like ${subject}` },
    )
    .toBe(true);
  return found!;
}

/** The path (and query) of the emailed link to `pathPrefix` in a message's text, to open on the test's own origin. */
export function emailedPath(message: ReceivedEmail, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s/]+(${pathPrefix.replace(/\//g, "\\/")}[^\\s]*)`).exec(message.text);
  expect(match, `a ${pathPrefix} link in: ${message.text}`).not.toBeNull();
  return match![1]!;
}

/** Follows the confirmation link sign-up emailed to `email` and confirms the address (the dashboard's live keys and invitations need it). */
export async function confirmEmail(page: Page, email: string): Promise<void> {
  const message = await readEmail(email, /Confirm your email address|Confirme su dirección/);
  await page.goto(emailedPath(message, "/verify-email/"));
  await page.getByRole("button", { name: "Confirm my email address" }).click();
  await expect(page.getByRole("status")).toContainText(`${email} is confirmed.`);
  await page.goto("/dashboard");
}

export async function signIn(page: Page, developer: TestDeveloper, next?: string): Promise<void> {
  await page.goto(next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in");
  await page.getByLabel("Email address").fill(developer.email);
  await page.getByLabel("Password").fill(developer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Creates an application from the applications page and returns its id (the page it opens). */
export async function createApplication(page: Page, name: string): Promise<string> {
  await page.goto("/dashboard");
  await page.getByRole("button", { name: /New application|Create your first application/ }).click();
  await page.getByLabel("Application name").fill(name);
  await page.getByRole("button", { name: "Create application" }).click();
  await expect(page).toHaveURL(/\/dashboard\/app_[A-Za-z0-9]+$/);
  return /\/dashboard\/(app_[A-Za-z0-9]+)$/.exec(page.url())![1]!;
}

/** Creates a sandbox key from the application's keys page and returns the secret shown once. */
export async function createSandboxKey(page: Page, applicationId: string, name: string): Promise<string> {
  await page.goto(`/dashboard/${applicationId}/keys`);
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Key name").fill(name);
  await dialog.getByRole("button", { name: "Create key" }).click();
  const key = (await dialog.locator("pre").first().textContent())!.trim();
  await dialog.getByRole("button", { name: "Done" }).click();
  return key;
}

/** Creates a live key (production must be approved) from the application's keys page and returns the secret shown once. */
export async function createLiveKey(page: Page, applicationId: string, name: string): Promise<string> {
  // A member of an application in production has a second factor, and gives it again for a live key (issue 57).
  await gotoWithSecondFactor(page, `/dashboard/${applicationId}/keys`);
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Key name").fill(name);
  await dialog.getByRole("radio", { name: /Live/ }).check();
  await dialog.getByRole("button", { name: "Create key" }).click();
  const shown = dialog.locator("pre").first();
  await Promise.race([shown.waitFor(), page.waitForURL(/\/dashboard\/account\/confirm/)]);
  if (page.url().includes("/dashboard/account/confirm")) {
    await giveAuthenticatorCode(page);
    await page.waitForURL(new RegExp(`/dashboard/${applicationId}/keys$`));
    return createLiveKey(page, applicationId, name);
  }
  const key = (await shown.textContent())!.trim();
  expect(key).toMatch(/^ck_live_/);
  return key;
}

/**
 * Resolves once every animation of the elements `locator` matches (and of their descendants) has finished or been
 * cancelled: a cancelled one (a toast's transition replaced by the next as sonner moves it) no longer affects how
 * the element looks, and its `finished` promise rejects.
 */
export async function animationsSettled(locator: Locator): Promise<void> {
  await locator.evaluateAll((elements) => Promise.all(elements.flatMap((element) => element.getAnimations({ subtree: true }).map((animation) => animation.finished.catch(() => undefined)))));
}

/**
 * No serious or critical axe-core violations (WCAG 2.1 A and AA rules) on the page as it is now, or only in the
 * parts `include` selects (a long page whose other parts other tests check).
 */
export async function expectAccessible(page: Page, context = page.url(), include: string[] = []): Promise<void> {
  // The document declares the language its page is written in: a page whose main content is Spanish is not lang="en".
  const languages = await page.evaluate(() => ({ html: document.documentElement.lang, main: document.querySelector("main[lang]")?.getAttribute("lang") ?? null }));
  if (languages.main !== null) expect(languages.html, `<html lang> of ${context}`).toBe(languages.main);
  // A toast mid-fade is lighter than it will be: judged once its entrance (or exit) animation has finished.
  await animationsSettled(page.locator("[data-sonner-toast]"));
  const serious = (await axeViolations(page, include))
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.targets.join(", ")}`);
  expect(serious, `axe violations on ${context}`).toEqual([]);
}

const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe-core's WCAG 2.1 A/AA violations on the page as it is now. The engine is injected once per document (through
 * the browser's debugging protocol, as Playwright evaluates anything, so the page's CSP does not apply) and asked
 * for violations only: @axe-core/playwright's `analyze()` injects it twice and opens a blank page per call, about
 * ten times the cost on a 2-core machine, and checks cross-origin frames, which no page of ours has.
 */
async function axeViolations(page: Page, include: string[]): Promise<{ id: string; impact: string | null; help: string; targets: string[] }[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  return page.evaluate(
    async ({ include, tags }) => {
      const engine = (window as unknown as { axe: typeof axe }).axe;
      const context = include.length > 0 ? { include: include.map((selector) => [selector]) } : document;
      const { violations } = await engine.run(context, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
      return violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? null,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(" ")),
      }));
    },
    { include, tags: WCAG_21_AA },
  );
}

/**
 * A full-page screenshot kept with the test's artifacts (test-results/) when E2E_SCREENSHOTS=1, for reviewing the UI.
 * Not by default: each costs a second or two of the test command's CPU, and a failing test keeps its own screenshot.
 */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== "1") return;
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/** The page fits a phone's width: nothing makes the whole document scroll sideways. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  // Polled: a chart lays out at a default width until it has measured its container, for a frame or two.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { timeout: 5_000 })
    .toBeLessThanOrEqual(0);
}

/**
 * The page as it is now fits and is accessible at a phone's (390 px) and a laptop's (1280 px) width, checked in the
 * one page by resizing it (no second walk through the flow to reach it); the page is left at `end`.
 */
export async function checkAtBothWidths(page: Page, what: string, end: 390 | 1280): Promise<void> {
  for (const width of end === 390 ? [1280, 390] : [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, `${what} at ${width}px`);
  }
}

export type Authenticator = { secret: string; recoveryCodes: string[]; lastStep: number };

const currentStep = () => Math.floor(Date.now() / 1000 / 30);

/** Each signed-in page's authenticator app, once enrolled (the step-up helper types its codes). */
const authenticators = new WeakMap<Page, Authenticator>();

/**
 * Sets up an authenticator app on the signed-in account from the Security page (as a person would: the setup key
 * read off the page, the code computed by totpCode) and keeps its secret for later step-ups on this page.
 */
export async function enrolAuthenticator(page: Page): Promise<Authenticator> {
  if (!page.url().includes("/dashboard/account/security")) await page.goto("/dashboard/account/security");
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const card = page.locator("section").filter({ has: page.getByRole("heading", { name: "Authenticator app" }) });
  const secret = (await card.locator("pre").first().textContent())!.trim();
  // Beside the setup key, its QR code for the app to scan (decoded in lib/account-security/totp-qr.int.test.ts).
  await expect(card.getByRole("img", { name: "QR code of the setup key: scan it with your authenticator app" })).toBeVisible();
  const step = currentStep();
  await page.getByLabel("Code from your authenticator app").fill(totpCode(secret, 0, step * 30_000));
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.locator("[role=status]").filter({ hasText: "Save these recovery codes now" }).locator("pre");
  await expect(codes).toBeVisible({ timeout: 15_000 });
  const recoveryCodes = (await codes.textContent())!.trim().split(/\s+/);
  const authenticator = { secret, recoveryCodes, lastStep: step };
  authenticators.set(page, authenticator);
  return authenticator;
}

/** Gives the authenticator's next code where the page asks for it (the sign-in's second step or a step-up). */
export async function giveAuthenticatorCode(page: Page, authenticator: Authenticator | undefined = authenticators.get(page)): Promise<void> {
  if (!authenticator) throw new Error("no authenticator enrolled on this page");
  authenticators.set(page, authenticator);
  // A code is accepted once per 30-second step, one step either side: the next unused step, at most one ahead of
  // the clock (waiting for the clock when the steps ahead are spent).
  const step = Math.max(currentStep(), authenticator.lastStep + 1);
  while (step > currentStep() + 1) await page.waitForTimeout(1_000);
  authenticator.lastStep = step;
  await page.getByLabel("Code from your authenticator app").fill(totpCode(authenticator.secret, 0, step * 30_000));
  await page.getByRole("button", { name: /^(Continue|Confirm)$/ }).click();
}

/**
 * For pages that may ask for a second factor first: an account required to have one enrols (then comes back), and
 * a step-up gets the next code. Resolves once the page at `path` is shown.
 */
export async function gotoWithSecondFactor(page: Page, path: string): Promise<void> {
  await page.goto(path);
  // A redirect decided inside a loading boundary is streamed and followed by the browser after goto resolves.
  await page.waitForURL(/\/dashboard\/account\/(security|confirm)/, { timeout: 3_000 }).catch(() => undefined);
  if (page.url().includes("/dashboard/account/security")) {
    await enrolAuthenticator(page);
    await page.goto(path);
  }
  if (page.url().includes("/dashboard/account/confirm")) {
    await giveAuthenticatorCode(page);
    await page.waitForURL((url) => !url.pathname.startsWith("/dashboard/account/confirm"));
  }
}
