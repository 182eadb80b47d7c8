import { expect, test, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { createApplication, expectAccessible, expectNoHorizontalOverflow, keepScreenshot, signUp } from "./dashboard-helpers";
import { devSandboxKey } from "@/test/e2e-platform";

// Conformance in Chromium against the running platform (its in-process worker drives the runs): the shared report
// page of a finished run, read by anyone without a key, and the dashboard's Conformance page.

type Run = { id: string; status: string; phase: string; verdict: string | null; run_key?: string; links: { report: string; reportPage: string } };

const api = (request: APIRequestContext, key: string) => ({
  get: (path: string) => request.get(`/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } }),
  post: (path: string, body?: unknown) => request.post(`/api/v1${path}`, { headers: { authorization: `Bearer ${key}` }, data: body ?? {} }),
});

async function pollRun(request: APIRequestContext, key: string, runId: string, until: (run: Run) => boolean, timeout = 60_000): Promise<Run> {
  let run: Run | null = null;
  await expect
    .poll(
      async () => {
        run = (await (await api(request, key).get(`/conformance/runs/${runId}`)).json()) as Run;
        return until(run);
      },
      { timeout, intervals: [500] },
    )
    .toBe(true);
  return run!;
}

/**
 * A run of an integration that retries a 429 at once: it creates a Connect session with the run key (the run
 * completes it), reads records through both forced 429s without waiting, and the rest is advanced: the verdict is
 * failed, with retry_after's evidence and fix. The run is watched with the application's own key (the run key is
 * revoked when the run ends).
 */
async function failedRun(request: APIRequestContext): Promise<Run> {
  const owner = api(request, devSandboxKey());
  // The development application may hold an open run from an earlier attempt.
  for (const open of ((await (await owner.get("/conformance/runs")).json()) as { data: Run[] }).data.filter((run) => run.status === "open")) {
    await owner.post(`/conformance/runs/${open.id}/cancel`);
  }
  const started = await owner.post("/conformance/runs", { scenario: "baseline-adult" });
  expect(started.status()).toBe(201);
  const run = (await started.json()) as Run;
  const integration = api(request, run.run_key!);
  const session = (await (await integration.post("/connect/sessions", { categories: ["medications", "allergies"] })).json()) as { id: string };
  const ownerKey = devSandboxKey();
  await pollRun(request, ownerKey, run.id, (current) => current.phase !== "session");
  const subject = ((await (await integration.get(`/connect/sessions/${session.id}`)).json()) as { subject: string }).subject;
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 3; attempt++) statuses.push((await integration.get(`/users/${subject}/records/medications`)).status());
  expect(statuses).toEqual([429, 429, 200]);
  // Each advance grades the live phase; the probes phase (no webhook URL here) may end by itself meanwhile.
  for (let step = 0; step < 6; step++) {
    const current = (await (await owner.get(`/conformance/runs/${run.id}`)).json()) as Run;
    if (current.status !== "open") break;
    await owner.post(`/conformance/runs/${run.id}/advance`);
  }
  return pollRun(request, ownerKey, run.id, (current) => current.status === "ended");
}

async function checkReportPage(page: Page, run: Run, label: string, testInfo: TestInfo) {
  await page.goto(new URL(run.links.reportPage).pathname);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Verdict:")).toBeVisible();
  await expect(page.getByText("Failed", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Timeline" })).toBeVisible();
  // The verdict line names what failed, and the failed check comes first.
  await expect(page.getByText(/checks? failed: Forced 429s retried no sooner than Retry-After/)).toBeVisible();
  await expect(page.locator("article ul > li h3").first()).toHaveText("Forced 429s retried no sooner than Retry-After");
  const retry = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Forced 429s retried no sooner than Retry-After" }) });
  await expect(retry).toContainText("failed");
  await expect(retry).toContainText("How to fix:");
  await expect(retry).toContainText("Waited (ms)");
  await expectAccessible(page, `report (${label})`);
  await expectNoHorizontalOverflow(page);
  await keepScreenshot(page, testInfo, `report-${label}`);
}

test("the shared report page: verdict, timeline, checks with evidence and fixes, link previews, print and phone layouts", async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const run = await failedRun(request);
  expect(run).toMatchObject({ status: "ended", verdict: "failed" });

  await page.setViewportSize({ width: 1280, height: 900 });
  await checkReportPage(page, run, "desktop", testInfo);
  await page.setViewportSize({ width: 390, height: 844 });
  await checkReportPage(page, run, "phone", testInfo);

  // Link previews: Open Graph and Twitter card tags, and the image generated for this report.
  const meta = (selector: string) => page.locator(selector).first().getAttribute("content");
  expect(await meta('meta[property="og:title"]')).toContain("conformance failed");
  expect(await meta('meta[property="og:description"]')).toContain("baseline-adult");
  expect(await meta('meta[name="twitter:card"]')).toBe("summary_large_image");
  const image = (await meta('meta[property="og:image"]'))!;
  expect(await meta('meta[name="twitter:image"]')).toBe(image);
  const picture = await request.get(new URL(image).pathname + new URL(image).search);
  expect(picture.status()).toBe(200);
  expect(picture.headers()["content-type"]).toBe("image/png");
  expect((await picture.body()).byteLength).toBeGreaterThan(5_000);

  // Print: the machine-readable link is left out; the checks and their evidence stay.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("link", { name: "report JSON" })).toBeHidden();
  await expect(page.getByText("How to fix:").first()).toBeVisible();
  await page.emulateMedia({ media: "screen" });
  await expect(page.getByRole("link", { name: "report JSON" })).toBeVisible();

  // The same report as JSON, without a key.
  const json = await request.get(new URL(run.links.report).pathname);
  expect(json.status()).toBe(200);
  expect(json.headers()["cache-control"]).toBe("no-store");
  expect(await json.json()).toMatchObject({ object: "conformance_report", verdict: "failed" });

  const missing = await page.goto("/reports/not-a-report-token");
  expect(missing?.status()).toBe(404);
});

test("the dashboard's Conformance page: start a run, see its key once, watch it live, cancel it, and find it in the history", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Conformance Ready");
  await page.goto(`/dashboard/${applicationId}`);
  await page.getByRole("navigation", { name: "Application" }).getByRole("link", { name: "Conformance" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${applicationId}/conformance$`));
  await expect(page.getByRole("heading", { level: 1, name: "Conformance" })).toBeVisible();
  await expect(page.getByText("No runs yet")).toBeVisible();
  // Before any run: every check's rule, its window and its allowance, the redelivery rule included.
  await expect(page.getByRole("heading", { name: "How each check is graded" })).toBeVisible();
  await expect(page.getByText(/watched for 15 s after the signal and until the run ends/)).toBeVisible();
  await expect(page.getByText(/sent again with the same webhook-id/)).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `conformance (empty, ${width})`);
    await expectNoHorizontalOverflow(page);
    // The top bar keeps the API reference, and the ten sections stay on one line (they scroll sideways on a phone).
    await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API reference" })).toBeVisible();
    const sections = page.getByRole("navigation", { name: "Application" });
    expect((await sections.boundingBox())!.height).toBeLessThan(60);
    await expect(sections.getByRole("link", { name: "Conformance" })).toBeInViewport();
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await expect(page.getByRole("radio", { name: /Continuous/ })).toBeDisabled();
  await page.getByRole("radio", { name: /Young child with a vaccination series/ }).check();
  await page.getByRole("button", { name: "Start a run" }).click();
  await expect(page.getByRole("heading", { name: "Run key (shown once)" })).toBeVisible();
  const runKey = (await page.locator("pre").filter({ hasText: /^ck_test_/ }).textContent())!.trim();
  expect(runKey).toMatch(/^ck_test_/);
  const waiting = page.getByTestId("waiting-for");
  await expect(waiting).toContainText("Create a Connect session with the run key");
  await expect(page.getByRole("button", { name: "Start a run" })).toBeDisabled();
  await expectAccessible(page, "conformance (run open)");

  // The integration creates its session with the run key; the run completes it and moves to the rate limits.
  const created = await request.post("/api/v1/connect/sessions", { headers: { authorization: `Bearer ${runKey}` }, data: { categories: ["immunizations"] } });
  expect(created.status()).toBe(201);
  await expect(waiting).toContainText("Read the subject's records with the run key", { timeout: 30_000 });
  await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Connect session created with the run key" }) })).toContainText("passed");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "conformance (live, phone)");
  await expectNoHorizontalOverflow(page);
  await keepScreenshot(page, testInfo, "conformance-live-phone");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Advancing ends the rate-limit phase early (nothing was read: inconclusive) and the run revokes consent next.
  await page.getByRole("button", { name: "Advance phase" }).click();
  await expect(waiting).toContainText(/Revoking the subject's consent|Consent was revoked/, { timeout: 15_000 });
  await expect(page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Forced 429s retried no sooner than Retry-After" }) })).toContainText("inconclusive");

  await page.getByRole("button", { name: "Cancel run" }).click();
  await expect(page.getByText("Run cancelled; its run key is revoked.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Run key (revoked)" })).toBeVisible();
  await expect(page.locator("pre").filter({ hasText: /^ck_test_/ })).toHaveCount(0);
  expect((await request.get("/api/v1/app", { headers: { authorization: `Bearer ${runKey}` } })).status()).toBe(401);
  const history = page.getByRole("table", { name: "Conformance runs" });
  await expect(history.getByText("Cancelled")).toBeVisible();
  await expect(history.getByRole("button", { name: /Copy link/ })).toBeVisible();
  await keepScreenshot(page, testInfo, "conformance-history");
  await history.getByRole("link", { name: /Open report/ }).click();
  await expect(page).toHaveURL(/\/reports\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Conformance Ready" })).toBeVisible();
  // The phase the run was cancelled in did not complete; the session phase did.
  const timeline = page.getByRole("listitem").filter({ hasText: "Consent revocation" });
  await expect(timeline.first()).toContainText("stopped");
  await expectAccessible(page, "report of a cancelled run");
});

test("the docs introduce conformance runs, point to the reference integration and open the operation in the reference", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/docs/guides/going-live");
  const guide = page.getByRole("region", { name: "Before go-live: conformance runs" });
  await expect(guide).toContainText("examples/conformance-reference/");
  await expect(guide).toContainText("Retry-After");
  await expect(guide.getByRole("heading", { name: "How each check is graded" })).toBeVisible();
  await expect(guide).toContainText("watched for 15 s after the signal and until the run ends");
  await guide.getByRole("link", { name: "conformance run" }).click();
  await expect(page).toHaveURL(/\/docs#platform\/tag\/conformance\/POST\/conformance\/runs$/);
  // Scalar opens the operation, with the errors it declares.
  const operation = page.locator('section[id="platform/tag/conformance/POST/conformance/runs"]');
  await expect(operation.getByRole("heading", { name: "Start a conformance run" })).toBeVisible({ timeout: 45_000 });
  await expect(operation).toContainText("run_in_progress");
});
