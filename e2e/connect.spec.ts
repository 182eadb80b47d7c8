import { devSandboxKey, platformDatabaseUrl } from "@/test/e2e-platform";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import pg from "pg";
import { checkAtBothWidths, expectAccessible } from "./dashboard-helpers";

// The whole Connect flow in Chromium against the synthetic health systems: an application creates a session with
// its sandbox key, a patient connects in the browser, and the application reads what was imported.

let sandboxKey: string;

test.beforeAll(() => {
  // The same tool a developer uses; it reuses the running platform's embedded database.
  sandboxKey = devSandboxKey();
});

const auth = () => ({ Authorization: `Bearer ${sandboxKey}` });

async function createSession(request: APIRequestContext, baseURL: string, categories: string[]) {
  const response = await request.post("/api/v1/connect/sessions", {
    headers: auth(),
    data: { categories, redirectUrl: `${baseURL}/?returned=1`, externalUserId: `e2e-${Date.now()}-${Math.random()}` },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; connectUrl: string };
}

async function signInAt(page: Page, providerName: string) {
  await page.getByRole("button", { name: `Sign in at ${providerName}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Sign in to ${providerName}` })).toBeVisible();
  await page.getByRole("radio").first().check();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in at each health system" })).toBeVisible();
}

test("on a phone and a desktop: one health system, a deselected category, live import, receipt and revoke", async ({ page, request, baseURL }) => {
  test.setTimeout(60_000);
  // The flow is walked on a phone; each page checked is also checked on a desktop (checkAtBothWidths).
  await page.setViewportSize({ width: 390, height: 844 });
  const session = await createSession(request, baseURL!, ["labs", "vitals", "medications", "allergies", "conditions"]);

  await page.goto(session.connectUrl);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("asks to see some of your health records");
  await expect(page.getByText("Lab results").first()).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Choose at least one health system" })).toBeVisible();
  await page.getByLabel("Search by name or city").fill("Dayton");
  await page.getByRole("checkbox", { name: /Riverbend Health/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();

  await signInAt(page, "Riverbend Health");
  await page.getByRole("link", { name: "Continue to review" }).click();
  await page.getByRole("checkbox", { name: /Vital signs/ }).uncheck();
  await page.getByRole("checkbox", { name: /Conditions/ }).uncheck();
  await page.getByRole("button", { name: /Share with/ }).click();

  await expect(page.getByRole("heading", { level: 1 })).toContainText("You are sharing with");
  await expect(page.locator('[data-status="synced"]')).toBeVisible({ timeout: 30_000 });

  const read = await request.get(`/api/v1/connect/sessions/${session.id}`, { headers: auth() });
  const completed = (await read.json()) as { status: string; subject: string; grantedCategories: string[]; sources: { status: string; recordCount: number }[] };
  expect(completed.status).toBe("completed");
  expect(completed.grantedCategories).toEqual(["medications", "allergies", "labs"]);
  expect(completed.sources).toEqual([expect.objectContaining({ status: "synced" })]);
  expect(completed.sources[0]!.recordCount).toBeGreaterThan(0);

  // Only what the patient shared was fetched and stored, so the done page's count is the shared records' count.
  const shown = Number(/· (\d+) records/.exec((await page.locator('[data-status="synced"]').textContent())!)![1]);
  const snapshot = (await (await request.get(`/api/v1/users/${completed.subject}/records`, { headers: auth() })).json()) as { sections: Record<string, { records: unknown[] }> };
  expect(Object.keys(snapshot.sections).sort()).toEqual(["allergies", "labs", "medications"]);
  expect(shown).toBe(Object.values(snapshot.sections).reduce((sum, section) => sum + section.records.length, 0));
  expect(shown).toBe(completed.sources[0]!.recordCount);
  const db = new pg.Client({ connectionString: platformDatabaseUrl() });
  await db.connect();
  const stored = await db.query<{ category: string }>(`SELECT DISTINCT "category" FROM "Record" WHERE "subjectId" = $1 ORDER BY 1`, [completed.subject]);
  // Conditions, unticked after sign-in, left the grant: the tokens kept with the source no longer read Condition.
  const grant = await db.query<{ tokenScope: string }>(`SELECT "tokenScope" FROM "Source" WHERE "subjectId" = $1`, [completed.subject]);
  await db.end();
  expect(stored.rows.map((row) => row.category)).toEqual(["allergies", "labs", "medications"]);
  expect(grant.rows.map((row) => row.tokenScope.split(" ").sort())).toEqual([
    [
      "launch/patient",
      "offline_access",
      // The synthetic health systems advertise SMART v2 (permission-v2): v2 scopes, labs narrowed to their category.
      "patient/AllergyIntolerance.rs",
      "patient/DiagnosticReport.rs?category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB",
      // The context the shared records reference (a prescription's Medication, a visit, a performer's name...).
      "patient/Encounter.rs",
      "patient/Location.rs",
      "patient/Medication.rs",
      "patient/MedicationDispense.rs",
      "patient/MedicationRequest.rs",
      "patient/MedicationStatement.rs",
      "patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory",
      "patient/Organization.rs",
      "patient/Practitioner.rs",
      "patient/Specimen.rs",
    ],
  ]);

  const labs = await request.get(`/api/v1/users/${completed.subject}/records/labs?limit=5`, { headers: auth() });
  expect(labs.status()).toBe(200);
  expect(((await labs.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  const vitals = await request.get(`/api/v1/users/${completed.subject}/records/vitals`, { headers: auth() });
  expect(((await vitals.json()) as { error: { code: string } }).error.code).toBe("app_scope_exceeded");

  // The application gets the receipt link twice: on the redirect back and on the consent receipt resource.
  const back = new URL((await page.getByRole("link", { name: /Return to/ }).getAttribute("href"))!);
  expect(back.searchParams.get("status")).toBe("completed");
  const receiptId = back.searchParams.get("receipt_id")!;
  const resource = (await (await request.get(`/api/v1/consents/${receiptId}`, { headers: auth() })).json()) as { receiptUrl: string; status: string };
  expect(resource.status).toBe("active");
  expect(back.searchParams.get("receipt_url")).toBe(resource.receiptUrl);
  await expect(page.getByRole("link", { name: "your sharing receipt" })).toHaveAttribute("href", resource.receiptUrl);
  await checkAtBothWidths(page, "done page", 390);

  await page.getByRole("link", { name: "your sharing receipt" }).click();
  await expect(page.getByText("Sharing now")).toBeVisible();
  // Stopping asks first and says what happens; "Keep sharing" changes nothing.
  await page.getByRole("link", { name: /Stop sharing with/ }).click();
  const confirm = page.getByRole("region", { name: /Stop sharing with .*\?/ });
  await expect(confirm).toContainText("can no longer read your records");
  await expect(confirm).toContainText("This cannot be undone");
  await checkAtBothWidths(page, "revoke confirmation", 390);
  await confirm.getByRole("link", { name: "Keep sharing" }).click();
  await expect(page.getByText("Sharing now")).toBeVisible();
  expect((await request.get(`/api/v1/users/${completed.subject}/records/labs`, { headers: auth() })).status()).toBe(200);
  await page.getByRole("link", { name: /Stop sharing with/ }).click();
  await page.getByRole("button", { name: "Yes, stop sharing" }).click();
  await expect(page.getByRole("status")).toContainText("You stopped sharing");
  await checkAtBothWidths(page, "receipt after revoke", 390);
  const after = await request.get(`/api/v1/users/${completed.subject}/records/labs`, { headers: auth() });
  expect(after.status()).toBe(404);

  // Every patient page tells the receipt's current state: the Connect link no longer says "You are sharing".
  await page.goto(session.connectUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^You stopped sharing with /);
  await expect(page.getByText("can no longer read your records")).toBeVisible();
  await expect(page.getByText("You are sharing")).toHaveCount(0);
  await checkAtBothWidths(page, "done page after revoke", 390);
});

test("two health systems with overlapping records are merged into one record listing both", async ({ page, request, baseURL }) => {
  const session = await createSession(request, baseURL!, ["conditions", "medications", "allergies", "labs"]);
  await page.goto(session.connectUrl);
  await page.getByRole("checkbox", { name: /Lakeshore Health Partners/ }).check();
  await page.getByRole("checkbox", { name: /Prairie Ridge/ }).check();
  await page.getByRole("button", { name: "Continue" }).click();
  await signInAt(page, "Lakeshore Health Partners");
  await signInAt(page, "Prairie Ridge Medical Center");
  await page.getByRole("link", { name: "Continue to review" }).click();
  await page.getByRole("button", { name: /Share with/ }).click();
  await expect(page.locator('[data-status="synced"]')).toHaveCount(2, { timeout: 30_000 });

  const completed = (await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers: auth() })).json()) as { subject: string };
  const snapshot = (await (await request.get(`/api/v1/users/${completed.subject}/records`, { headers: auth() })).json()) as {
    sections: Record<string, { records: { sources: { sourceId: string }[] }[] }>;
  };
  const merged = Object.values(snapshot.sections).flatMap((section) => section.records).filter((record) => new Set(record.sources.map((source) => source.sourceId)).size === 2);
  expect(merged.length).toBeGreaterThan(0);
});

test("cancel from a step returns to the application with status=cancelled", async ({ page, request, baseURL }) => {
  const session = await createSession(request, baseURL!, ["labs"]);
  await page.goto(session.connectUrl);
  // Cancelling asks once more, with "Keep sharing" first; keeping goes back to the same step.
  await page.getByRole("link", { name: "Cancel and return without sharing" }).click();
  const confirm = page.getByRole("region", { name: "Cancel without sharing?" });
  await expect(confirm).toContainText("will receive none of your records");
  await expect(confirm.getByRole("link").or(confirm.getByRole("button")).first()).toHaveText("Keep sharing");
  await expectAccessible(page, "cancel confirmation");
  await confirm.getByRole("link", { name: "Keep sharing" }).click();
  await expect(page.getByRole("region", { name: "Cancel without sharing?" })).toHaveCount(0);
  await page.getByRole("link", { name: "Cancel and return without sharing" }).click();
  await page.getByRole("button", { name: "Yes, cancel without sharing" }).click();
  await expect(page).toHaveURL(new RegExp(`returned=1.*session_id=${session.id}.*status=cancelled|status=cancelled.*session_id=${session.id}`));
  const read = (await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers: auth() })).json()) as { status: string };
  expect(read.status).toBe("cancelled");
  // The link now leads to the done page, not back into the flow.
  await page.goto(session.connectUrl);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Nothing was shared");
});

test("an expired link answers 410 with a page the patient understands", async ({ page, request, baseURL }) => {
  const session = await createSession(request, baseURL!, ["labs"]);
  // Sixty minutes are simulated by moving the session's expiry into the past in the platform's own database.
  const url = platformDatabaseUrl();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`UPDATE "ConnectSession" SET "expiresAt" = now() - interval '1 second' WHERE id = $1`, [session.id]);
  await client.end();

  const response = await page.goto(session.connectUrl);
  expect(response?.status()).toBe(410);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has expired");
  const api = await request.get(session.connectUrl, { headers: { Accept: "application/json" } });
  expect(api.status()).toBe(410);
  expect(((await api.json()) as { error: { code: string } }).error.code).toBe("session_expired");
  const read = (await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers: auth() })).json()) as { status: string };
  expect(read.status).toBe("expired");
});
