import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { grantReceipt } from "@/lib/consent";
import { closeDb, db, RUNTIME_FILE } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createTestSubject } from "@/test/factories";
import { checkAtBothWidths, createApplication, enrolAuthenticator, newDeveloper, signUp } from "./dashboard-helpers";

// The live subjects pages: a live subject's consent and, per source, last sync, next scheduled sync and last error,
// without any record content; and another team's member gets a 404. The subject and its sources are stored in the
// platform's database as the live Connect flow and continuous sync leave them (e2e/live-connect.spec.ts and
// lib/imports/third-party-sync.int.test.ts drive those against a third-party SMART server; here the pages are what
// is tested).

const HOUR = 60 * 60 * 1000;

// The worker process runs other spec files afterwards: the shared database's URL is set for this file only.
const previousDatabaseUrl = process.env.DATABASE_URL;
test.beforeAll(() => {
  process.env.DATABASE_URL = (JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR!, "postgres", RUNTIME_FILE), "utf8")) as { url: string }).url;
});
test.afterAll(async () => {
  await closeDb();
  if (previousDatabaseUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previousDatabaseUrl;
});

/** A continuous, approved application's live subject: one source synced and scheduled, one whose refresh token was revoked. */
async function liveSubject(applicationId: string) {
  await db().application.update({ where: { id: applicationId }, data: { syncMode: "continuous", productionEnabled: true } });
  const subject = await createTestSubject(applicationId, "live");
  await grantReceipt({ applicationId, environment: "live", subjectId: subject.id, categories: ["labs", "conditions"] });
  const provider = (name: string) => {
    const id = newId("prov_");
    return db().provider.create({
      data: { id, environment: "live", name, fhirBaseUrl: `https://${id.slice(5).toLowerCase()}.example.test/fhir`, authorizeUrl: "https://x.example.test/auth", tokenUrl: "https://x.example.test/token", clientId: "c", clientSecretEncrypted: "" },
    });
  };
  const [healthy, revoked] = await Promise.all([provider("Third Party Health"), provider("Lakeside Clinic")]);
  const now = Date.now();
  const synced = new Date(now - HOUR);
  const next = new Date(now + 5 * HOUR);
  const backedOff = new Date(now + 11 * HOUR);
  await db().source.create({ data: { id: newId("src_"), patientId: subject.patientId, subjectId: subject.id, providerId: healthy.id, connected: true, syncStatus: "synced", lastSyncedAt: synced, nextSyncAt: next } });
  await db().source.create({
    data: {
      id: newId("src_"),
      patientId: subject.patientId,
      subjectId: subject.id,
      providerId: revoked.id,
      connected: true,
      syncStatus: "partial",
      lastSyncedAt: new Date(now - 30 * HOUR),
      nextSyncAt: backedOff,
      syncFailures: 2,
      lastError: "reauthorization_required: The health system refused the refresh token (invalid_grant); the patient must connect again.",
    },
  });
  return { subjectId: subject.id, synced, next, backedOff };
}

async function cellsOf(page: Page, row: string) {
  const table = page.getByRole("table", { name: "Sources of the subject" });
  const headers = await table.getByRole("columnheader").allTextContents();
  const cells = await table.getByRole("row").filter({ hasText: row }).getByRole("cell").allTextContents();
  return Object.fromEntries(headers.map((header, index) => [header, cells[index]!.trim()]));
}

// One walk, clicked through on a phone, each page also checked at a laptop's width.
test("on a phone and a desktop: live subjects and a subject's sources with last sync, next sync and error", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page);
  const applicationId = await createApplication(page, "Live Subjects");

  await page.getByRole("navigation", { name: "Application" }).getByRole("link", { name: "Live subjects" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Live subjects" })).toBeVisible();
  await expect(page.getByText("No live subjects yet")).toBeVisible();
  await checkAtBothWidths(page, "live subjects, empty", 390);

  // In production (below), the application's live data asks its members for a second factor first (issue 57):
  // enrolled before the subject is seeded, so the schedule's times are read as seeded.
  await enrolAuthenticator(page);
  const seeded = await liveSubject(applicationId);
  await page.goto(`/dashboard/${applicationId}/live`);
  const list = page.getByRole("table", { name: "Live subjects" });
  const row = list.getByRole("row").filter({ hasText: seeded.subjectId });
  await expect(row).toContainText("consent active");
  await expect(row).toContainText("2 sources");
  await expect(row).toContainText("partial");
  await expect(row).toContainText(seeded.next.toISOString());
  await checkAtBothWidths(page, "live subjects", 390);

  await row.getByRole("link", { name: seeded.subjectId }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Live subject" })).toBeVisible();
  await expect(page.getByText("labs, conditions")).toBeVisible();
  expect(await cellsOf(page, "Third Party Health")).toMatchObject({ "Last synced": seeded.synced.toISOString(), "Next sync": seeded.next.toISOString(), "Last error": "—" });
  const failing = await cellsOf(page, "Lakeside Clinic");
  expect(failing["Status"]).toBe("partial");
  expect(failing["Next sync"]).toBe(`${seeded.backedOff.toISOString()}backing off after 2 failed syncs in a row`);
  expect(failing["Last error"]).toMatch(/^reauthorization_required.*refused the refresh token/);
  await checkAtBothWidths(page, "live subject", 390);

  // The subject id search opens the subject; an unknown id says so.
  await page.goto(`/dashboard/${applicationId}/live`);
  await page.getByLabel("Subject id").fill("u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd");
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page).toHaveURL(/\?subject=u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd$/, { timeout: 30_000 });
  await expect(page.getByRole("alert").filter({ hasText: "No live subject u_4Fq8Lm2Xv9Rk3Tn7Bw5Yc1Hd in this application." })).toBeVisible({ timeout: 20_000 });
  await checkAtBothWidths(page, "live subjects, unknown id", 390);
  await page.getByLabel("Subject id").fill(seeded.subjectId);
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/live/${seeded.subjectId}$`), { timeout: 30_000 });
});

test("another team's member gets a 404 for a live subject, through its application or their own", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Live Owner");
  const { subjectId } = await liveSubject(applicationId);
  await enrolAuthenticator(page);
  expect((await page.goto(`/dashboard/${applicationId}/live/${subjectId}`))?.status()).toBe(200);
  await expect(page).toHaveURL(new RegExp(`/live/${subjectId}$`));

  const other = await (await browser.newContext()).newPage();
  await signUp(other, newDeveloper("other-team"));
  const ownApplication = await createApplication(other, "Other Team");
  for (const url of [`/dashboard/${applicationId}/live`, `/dashboard/${applicationId}/live/${subjectId}`, `/dashboard/${ownApplication}/live/${subjectId}`]) {
    const response = await other.goto(url);
    expect(response?.status(), url).toBe(404);
    await expect(other.getByText(subjectId)).toHaveCount(0);
  }
  await expect(other.getByRole("heading", { level: 1, name: "Subject not found" })).toBeVisible();
  await other.context().close();
});
