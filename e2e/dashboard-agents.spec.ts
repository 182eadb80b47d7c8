import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { checkAtBothWidths, createApplication, expectAccessible, keepScreenshot, signUp } from "./dashboard-helpers";

// Delegated agent credentials in the dashboard, in Chromium against the running platform: a subject's page lists its
// active credentials and revokes one; the usage page shows who read what, and why. At a phone's and a laptop's width.

const PURPOSE = "Summarize current medications before the 3pm telehealth visit";

async function createKey(page: Page): Promise<string> {
  await page.getByRole("navigation", { name: "Application" }).getByRole("link", { name: "API keys" }).click();
  await page.getByRole("button", { name: "Create key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Key name").fill("Agent backend");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const key = (await dialog.locator("pre").first().textContent())!.trim();
  await dialog.getByRole("button", { name: "Done" }).click();
  return key;
}

/** A synthetic subject through the API (simulate baseline-adult; the in-process worker completes it). */
async function simulatedSubject(request: APIRequestContext, key: string): Promise<string> {
  const headers = { Authorization: `Bearer ${key}` };
  const session = await (await request.post("/api/v1/connect/sessions", { headers, data: { categories: ["medications", "labs", "allergies"] } })).json();
  expect((await request.post(`/api/v1/connect/sessions/${session.id}/simulate`, { headers, data: { scenario: "baseline-adult" } })).status()).toBe(200);
  let subject: string | null = null;
  await expect
    .poll(
      async () => {
        const current = await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers })).json();
        subject = current.subject;
        return current.simulation?.state;
      },
      { timeout: 60_000, intervals: [250] },
    )
    .toBe("completed");
  return subject!;
}

// One walk through the pages, each checked at both widths, with the clicks made at one width or the other.
test("a subject's agent credentials and the agent reads in usage, revoked from the dashboard (390px and 1280px)", async ({ page, request }, testInfo) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page);
  const applicationId = await createApplication(page, "Agent Host");
  const key = await createKey(page);
  const subject = await simulatedSubject(request, key);

  const issued = await request.post("/api/v1/agent-credentials", {
    headers: { Authorization: `Bearer ${key}` },
    data: { subject, categories: ["medications"], purpose: PURPOSE, durationSeconds: 900, operations: ["get_health_record", "get_category_records"] },
  });
  expect(issued.status()).toBe(201);
  const credential = await issued.json();
  const asAgent = { Authorization: `Bearer ${credential.token}` };
  expect((await request.get(`/api/v1/users/${subject}/records`, { headers: asAgent })).status()).toBe(200);
  expect((await request.get(`/api/v1/users/${subject}/records/labs`, { headers: asAgent })).status()).toBe(403);

  await page.goto(`/dashboard/${applicationId}/usage`);
  const reads = page.getByRole("table", { name: "Agent reads" });
  await expect(async () => {
    await page.reload();
    await expect(reads.getByRole("row")).toHaveCount(3, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(reads.getByRole("row").filter({ hasText: "/users/{subject}/records/{category}" })).toContainText("credential_scope_exceeded");
  await expect(reads.getByRole("row").filter({ hasText: "GET /users/{subject}/records" }).first()).toContainText(PURPOSE);
  await expect(reads).toContainText(credential.id);
  await expect(reads).toContainText(subject);
  await checkAtBothWidths(page, "usage", 390);
  await keepScreenshot(page, testInfo, "agent-reads-390");
  // A credential read's detail (opened on the phone) names the credential and the purpose it was issued for.
  await reads.getByRole("row").filter({ hasText: "credential_scope_exceeded" }).getByRole("link", { name: /Details of the request at/ }).click();
  await expect(page.getByRole("definition").filter({ hasText: PURPOSE })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: credential.id })).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: `/api/v1/users/${subject}/records/labs` })).toBeVisible();
  await checkAtBothWidths(page, "request detail", 1280);

  await page.goto(`/dashboard/${applicationId}/sandbox/subjects/${subject}`);
  const credentials = page.getByRole("table", { name: "Active agent credentials" });
  const row = credentials.getByRole("row").filter({ hasText: credential.id });
  await expect(row).toContainText(PURPOSE);
  await expect(row).toContainText("medications");
  await expect(row).toContainText("get_health_record, get_category_records");
  await checkAtBothWidths(page, "subject page", 390);
  await keepScreenshot(page, testInfo, "agent-credentials-390");

  // Revoked on the phone.
  await row.getByRole("button", { name: "Revoke" }).click();
  await expectAccessible(page, "revoke dialog at 390px");
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke credential" }).click();
  await expect(page.getByText(`Credential ${credential.id} revoked`)).toBeVisible();
  await expect(page.getByText("No active agent credentials")).toBeVisible();
  const refused = await request.get(`/api/v1/users/${subject}/records`, { headers: asAgent });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("invalid_agent_token");
});
