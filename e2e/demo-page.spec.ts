import { expect, test } from "@playwright/test";
import { expectAccessible, expectNoHorizontalOverflow, keepScreenshot } from "./dashboard-helpers";

// The keyless demo for people (issue 56, point 7): /demo lists the scenarios and their patients, each patient's page
// shows their records by category, and every raw JSON and FHIR link answers.

for (const width of [390, 1280]) {
  test(`the demo page lists every scenario and patient, the raw links answer, and the MCP configuration is copyable (${width}px)`, async ({ page, context }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await page.getByRole("link", { name: /Keyless demo API/ }).click();
    await expect(page).toHaveURL(/\/demo$/);
    await expect(page.getByRole("heading", { level: 1, name: "Keyless demo" })).toBeVisible();
    await expect(page.getByText("Fictional synthetic data for demonstration only.").first()).toBeVisible();

    const scenarios = page.getByRole("article");
    await expect(scenarios).toHaveCount(10);
    const baseline = scenarios.filter({ has: page.getByRole("heading", { name: "Adult with chronic conditions" }) });
    await expect(baseline.getByRole("list", { name: /Records of .* by category/ }).getByRole("link")).toHaveCount(10);
    await expect(baseline.getByRole("link", { name: /Lab results 12/ })).toBeVisible();
    await expect(scenarios.filter({ hasText: "Patient cancels Connect" })).toContainText("ends cancelled");
    await expect(scenarios.filter({ hasText: "Consent limited to medications and allergies" })).toContainText("Not shared under this consent: Demographics, Conditions");

    const mcp = page.getByRole("region", { name: "Use the demo from an AI assistant" });
    const origin = new URL(page.url()).origin;
    await expect(mcp.locator("pre")).toContainText(`"url": "${origin}/demo/v1/mcp"`);
    await expect(mcp.getByRole("button", { name: "Copy: mcp client configuration" })).toBeVisible();
    if (width === 1280) {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await mcp.getByRole("button", { name: "Copy: mcp client configuration" }).click();
      await expect(mcp.getByRole("button", { name: "Copied: mcp client configuration" })).toBeVisible();
      expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({ mcpServers: { "chartkey-demo": { type: "http", url: `${origin}/demo/v1/mcp` } } });
    }

    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, `/demo at ${width}px`);
    await keepScreenshot(page, testInfo, `demo-${width}`);

    // The raw links answer: a JSON link and a FHIR link, followed as a reader would.
    const json = baseline.getByRole("link", { name: /Normalized records \(JSON\)/ });
    const jsonHref = await json.getAttribute("href");
    const [jsonAnswer] = await Promise.all([page.waitForResponse((response) => response.url().endsWith(jsonHref!)), json.click()]);
    expect(jsonAnswer.status()).toBe(200);
    const record = (await jsonAnswer.json()) as { scenario: string; sections: Record<string, { records: unknown[] }> };
    expect(record.scenario).toBe("baseline-adult");
    expect(record.sections.labs?.records).toHaveLength(12);
    await page.goBack();
    const fhir = baseline.getByRole("link", { name: /FHIR Bundle/ });
    const fhirHref = await fhir.getAttribute("href");
    const [fhirAnswer] = await Promise.all([page.waitForResponse((response) => response.url().endsWith(fhirHref!)), fhir.click()]);
    expect(fhirAnswer.status()).toBe(200);
    expect(fhirAnswer.headers()["content-type"]).toContain("application/fhir+json");
    expect(((await fhirAnswer.json()) as { resourceType: string }).resourceType).toBe("Bundle");
  });

  test(`a patient's page shows their records by category, empty categories and behaviors, and fits (${width}px)`, async ({ page, request }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/demo");
    await page.getByRole("link", { name: /^See .*'s records$/ }).first().click();
    await expect(page).toHaveURL(/\/demo\/patients\/baseline-adult-patient$/);
    await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Keyless demo" })).toBeVisible();
    const labs = page.getByRole("region", { name: /^Lab results \(12\)/ });
    await expect(labs.getByRole("table")).toBeVisible();
    await expect(labs.getByRole("row")).toHaveCount(13);
    await expect(page.getByText("No documents in this record")).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, `baseline patient at ${width}px`);
    await keepScreenshot(page, testInfo, `demo-patient-${width}`);
    // Every link on the page to the demo API answers.
    const hrefs = await page.locator('main a[href^="/demo/v1/"]').evaluateAll((links) => [...new Set(links.map((link) => link.getAttribute("href")!))]);
    expect(hrefs.length).toBeGreaterThan(10);
    for (const href of hrefs) expect((await request.get(href)).status(), href).toBe(200);

    // A long history shows the first records and links all of them; a revoked consent says what reads answer.
    await page.goto("/demo/patients/long-history-patient");
    await expect(page.getByRole("region", { name: /^Lab results \(3,991\)/ })).toContainText("Showing the first 25 of 3,991.");
    await page.goto("/demo");
    await page.getByRole("article").filter({ hasText: "Patient revokes sharing" }).getByRole("link", { name: /^See / }).click();
    await expect(page.getByRole("note")).toContainText("410 consent_inactive");
    await expectAccessible(page, `revoked patient at ${width}px`);
  });
}

test("an unknown demo patient is a 404 page", async ({ page }) => {
  const response = await page.goto("/demo/patients/nobody");
  expect(response?.status()).toBe(404);
});
