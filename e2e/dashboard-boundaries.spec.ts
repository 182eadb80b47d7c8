import { platformDatabaseUrl } from "@/test/e2e-platform";
import { expect, test, type Browser, type Page } from "@playwright/test";
import pg from "pg";
import { createApplication, expectAccessible, expectNoHorizontalOverflow, signUp } from "./dashboard-helpers";

// A dashboard section's loading and error boundaries, met for real: the team page reads the application's
// invitations, and a transaction holding the Invitation table's lock keeps that read waiting (the section's loading
// panel shows meanwhile); ending the waiting database connection fails the read (the error panel). Only the team
// pages and invitations touch that table, so other tests running meanwhile are not held up.

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
];

/** The platform's connection waiting for the lock to read invitations, once it waits. */
async function waitingInvitationRead(admin: pg.Client): Promise<number> {
  let pid = 0;
  await expect
    .poll(async () => {
      const waiting = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query LIKE '%FROM "public"."Invitation"%'`,
      );
      pid = waiting.rows[0]?.pid ?? 0;
      return pid;
    })
    .toBeGreaterThan(0);
  return pid;
}

/**
 * axe on the page as shown now, judged in a copy: scripts cannot be run in a document still streaming, so its DOM
 * (read without them) is laid out again in another page of the same size, with the same styles and no scripts.
 */
async function expectAccessibleCopy(browser: Browser, page: Page, context: string): Promise<void> {
  const html = await page.locator("html").innerHTML();
  const copyContext = await browser.newContext({ viewport: page.viewportSize(), baseURL: new URL(page.url()).origin });
  const copy = await copyContext.newPage();
  try {
    // A page of the platform, so the copied stylesheets load as they did (same origin and policy).
    await copy.goto("/sign-in");
    await copy.setContent(`<!doctype html><html lang="en">${html.replace(/<script\b[\s\S]*?<\/script>/g, "")}</html>`);
    await expectAccessible(copy, context);
  } finally {
    await copyContext.close();
  }
}

test("a section's loading and error panels: an h1, what happened, a retry that works, at 390 and 1280 px", async ({ browser, page }) => {
  test.setTimeout(90_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Boundary Lab");
  const locker = new pg.Client({ connectionString: platformDatabaseUrl() });
  const admin = new pg.Client({ connectionString: platformDatabaseUrl() });
  await locker.connect();
  await admin.connect();
  try {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await locker.query("BEGIN");
      await locker.query('LOCK TABLE "Invitation" IN ACCESS EXCLUSIVE MODE');
      // The document never finishes while the read waits: only its first bytes are awaited.
      await page.goto(`/dashboard/${applicationId}/team`, { waitUntil: "commit" });
      const loading = page.getByRole("status").filter({ has: page.getByRole("heading", { level: 1, name: "Loading…" }) });
      await expect(loading).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expectAccessibleCopy(browser, page, `team page loading (${viewport.name})`);

      await admin.query("SELECT pg_terminate_backend($1)", [await waitingInvitationRead(admin)]);
      const failed = page.getByRole("alert").filter({ has: page.getByRole("heading", { level: 1, name: "Something went wrong" }) });
      await expect(failed).toContainText("This page could not be loaded. Nothing was changed; try again in a moment.");
      await expect(loading).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page, `team page error (${viewport.name})`);

      // The database answers again: "Try again" fetches the page anew and it renders.
      await locker.query("ROLLBACK");
      await failed.getByRole("button", { name: "Try again" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible({ timeout: 20_000 });
      await expect(failed).toHaveCount(0);
    }
  } finally {
    await locker.query("ROLLBACK");
    await locker.end();
    await admin.end();
  }
});
