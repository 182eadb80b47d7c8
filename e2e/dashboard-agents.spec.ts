import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { createApplication, expectAccessible, expectNoHorizontalOverflow, keepScreenshot, signUp } from "./dashboard-helpers";

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

for (const width of [390, 1280]) {
  test(`a subject's agent credentials and the agent reads in usage, revoked from the dashboard (${width}px)`, async ({ page, request }, testInfo) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height: 900 });
    await signUp(page);
    const applicationId = await createApplication(page, `Agent Host ${width}`);
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
    await expectAccessible(page, `usage at ${width}px`);
    await expectNoHorizontalOverflow(page);
    await keepScreenshot(page, testInfo, `agent-reads-${width}`);
    // A credential read's detail names the credential and the purpose it was issued for.
    await reads.getByRole("row").filter({ hasText: "credential_scope_exceeded" }).getByRole("link", { name: /Details of the request at/ }).click();
    await expect(page.getByRole("definition").filter({ hasText: PURPOSE })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: credential.id })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: `/api/v1/users/${subject}/records/labs` })).toBeVisible();
    await expectAccessible(page, `request detail at ${width}px`);
    await expectNoHorizontalOverflow(page);

    await page.goto(`/dashboard/${applicationId}/sandbox/subjects/${subject}`);
    const credentials = page.getByRole("table", { name: "Active agent credentials" });
    const row = credentials.getByRole("row").filter({ hasText: credential.id });
    await expect(row).toContainText(PURPOSE);
    await expect(row).toContainText("medications");
    await expect(row).toContainText("get_health_record, get_category_records");
    await expectAccessible(page, `subject page at ${width}px`);
    await expectNoHorizontalOverflow(page);
    await keepScreenshot(page, testInfo, `agent-credentials-${width}`);

    await row.getByRole("button", { name: "Revoke" }).click();
    await expectAccessible(page, `revoke dialog at ${width}px`);
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke credential" }).click();
    await expect(page.getByText(`Credential ${credential.id} revoked`)).toBeVisible();
    await expect(page.getByText("No active agent credentials")).toBeVisible();
    const refused = await request.get(`/api/v1/users/${subject}/records`, { headers: asAgent });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe("invalid_agent_token");
  });
}
