import { expect, test, type Page } from "@playwright/test";
import { checkAtBothWidths, createApplication, expectAccessible, expectNoHorizontalOverflow, keepScreenshot, signUp } from "./dashboard-helpers";

// The dashboard's Sandbox section in Chromium against the running platform (its in-process worker runs the
// simulation and import jobs): simulate a scenario and watch simulation.state, browse the subject's records, trigger
// sandbox events, create a Connect session and walk its hosted flow; another developer reaches none of it.

async function openSandbox(page: Page, applicationId: string) {
  await page.goto(`/dashboard/${applicationId}`);
  await page.getByRole("navigation", { name: "Application" }).getByRole("link", { name: "Sandbox" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${applicationId}/sandbox$`));
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox" })).toBeVisible();
}

/** Simulates baseline-adult from the sandbox page and waits for it to complete; returns the session page's id. */
async function simulateBaseline(page: Page): Promise<{ sessionId: string; states: string[] }> {
  await page.getByRole("radio", { name: /Adult with chronic conditions/ }).check();
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(page).toHaveURL(/\/sandbox\/sessions\/cs_[A-Za-z0-9]+$/);
  const state = page.getByTestId("simulation-state");
  const states: string[] = [];
  await expect
    .poll(
      async () => {
        const now = (await state.textContent())?.trim() ?? "";
        if (states.at(-1) !== now) states.push(now);
        return now;
      },
      { timeout: 60_000, intervals: [200] },
    )
    .toBe("completed");
  return { sessionId: /sessions\/(cs_[A-Za-z0-9]+)$/.exec(page.url())![1]!, states };
}

test("simulate a scenario, watch it complete, browse the records with raw JSON, and trigger sandbox events", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Sandbox Explorer");
  await openSandbox(page, applicationId);
  await expect(page.getByText("No synthetic subjects yet")).toBeVisible();
  await expect(page.getByText("No sessions yet")).toBeVisible();
  await expectAccessible(page, "sandbox (empty)");
  await keepScreenshot(page, testInfo, "sandbox-empty");

  const { states } = await simulateBaseline(page);
  // The state moved (through importing) and ended completed; the source is synced with records.
  expect(states.at(-1)).toBe("completed");
  expect(states.every((value) => ["queued", "connecting", "importing", "completed"].includes(value))).toBe(true);
  const sources = page.getByRole("table", { name: "Sources of the session" });
  await expect(sources.getByText("synced")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Completed: every source imported" })).toBeVisible();
  await expectAccessible(page, "session progress");
  await keepScreenshot(page, testInfo, "sandbox-session-completed");

  await page.getByRole("link", { name: /Open subject u_/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/subjects\/u_[A-Za-z0-9]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Synthetic subject" })).toBeVisible();
  await expect(page.getByText("consent active")).toBeVisible();
  // The import's fidelity report: records per category, what became no record and why, context, warnings.
  const recordsByCategory = page.getByRole("list", { name: "Records from Riverbend Health by category" });
  await expect(recordsByCategory.getByRole("listitem").filter({ hasText: /^labs \d+$/ })).not.toHaveText("labs 0");
  await expect(recordsByCategory.getByRole("listitem")).toHaveCount(10);
  await expect(page.getByTestId("fidelity-totals")).toHaveText(/^\d+ records, \d+ resources? skipped, completed \d{4}-\d\d-\d\dT/);
  // What became no record is listed by type and reason.
  const skipped = page.getByRole("table", { name: "Resources from Riverbend Health that became no record" });
  await expect(skipped.getByRole("row")).not.toHaveCount(0);
  // The prescription's referenced Medication was read as context, so no prescription is lost for naming no medication.
  await expect(skipped).not.toContainText("names no medication");
  await expect(page.getByText(/^Read only as context: /)).toHaveText(/\bMedication 1\b.*\bPractitioner 2\b/);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, `subject fidelity report at ${width} px`);
  }
  await keepScreenshot(page, testInfo, "sandbox-subject-fidelity");
  await page.getByRole("navigation", { name: "Record categories" }).getByRole("link", { name: /^labs/ }).click();
  await expect(page).toHaveURL(/category=labs$/);
  const labs = page.getByRole("table", { name: /^labs records of u_/ });
  await expect(labs).toBeVisible();
  // Codes with their displays, values with units, times exactly as sent (the original offset kept).
  const a1c = labs.getByRole("row").filter({ hasText: "4548-4" }).first();
  await expect(a1c).toContainText("LOINC");
  await expect(a1c).toContainText("Hemoglobin A1c");
  await expect(a1c).toContainText(/\d+(\.\d+)? %/);
  await expect(a1c).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[45]:00/);
  await expect(labs.getByRole("row").filter({ hasText: "mg/dL" }).first()).toBeVisible();
  await expectAccessible(page, "subject records");
  await keepScreenshot(page, testInfo, "sandbox-subject-labs");

  await a1c.getByRole("button", { name: /Raw JSON of/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('"recordId": "rec_');
  await expect(dialog).toContainText('"system": "http://loinc.org"');
  await expectAccessible(page, "raw JSON dialog");
  await keepScreenshot(page, testInfo, "sandbox-raw-json");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(a1c.getByRole("button", { name: /Raw JSON of/ })).toBeFocused();

  // Long categories load a page at a time.
  await expect(page.getByText("Showing 10 records; more are available.")).toBeVisible();
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(page.getByText(/Loaded 2 more labs records/)).toBeVisible();
  await expect(page.getByText("Showing 12 records.")).toBeVisible();
  await expect(labs.getByRole("row").filter({ hasText: "4548-4" })).toHaveCount(2);

  await page.getByRole("navigation", { name: "Record categories" }).getByRole("link", { name: /^claims/ }).click();
  await expect(page.getByText("No claims records")).toBeVisible();

  // records.advance: the source moves to its next phase, said in a toast and shown on the page.
  await expect(page.getByTestId("source-phase")).toHaveText("phase 0");
  await page.getByRole("button", { name: "Advance records" }).click();
  await expect(page.getByText(/Advanced the records: .* phase 1, synced/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("source-phase")).toHaveText("phase 1");

  // consent.revoke asks first, then reads stop.
  await page.getByRole("button", { name: "Revoke consent" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("cannot be undone");
  await expectAccessible(page, "revoke confirmation");
  await confirm.getByRole("button", { name: "Revoke consent" }).click();
  await expect(page.getByText(/Consent revoked \(cr_/)).toBeVisible();
  await expect(page.getByText("consent revoked", { exact: true })).toBeVisible();
  // The API stops serving the subject; the dashboard still shows the sandbox's own synthetic records, and says so.
  await page.getByRole("navigation", { name: "Record categories" }).getByRole("link", { name: /^labs/ }).click();
  await expect(page.getByRole("note")).toContainText("Consent is revoked: the API no longer serves these records");
  await expect(page.getByRole("table", { name: /^labs records of u_/ })).toBeVisible();
  await keepScreenshot(page, testInfo, "sandbox-subject-revoked");

  await page.getByRole("link", { name: "Back to the sandbox" }).click();
  const subjects = page.getByRole("table", { name: "Synthetic subjects" });
  await expect(subjects.getByText("consent revoked")).toBeVisible();
  await expect(subjects.getByText(/\d+ records/)).toBeVisible();
  await expectAccessible(page, "sandbox with a subject");
  await keepScreenshot(page, testInfo, "sandbox-with-subject");
});

test("create a Connect session and walk its hosted flow from the dashboard's link", async ({ page, context }, testInfo) => {
  test.setTimeout(120_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Connect Starter");
  await openSandbox(page, applicationId);

  await page.getByRole("checkbox", { name: /^vitals/ }).uncheck();
  await page.getByLabel("External user id (optional)").fill("patient-42");
  await page.getByRole("button", { name: "Create session" }).click();
  await expect(page.getByText(/Connect session cs_\w+ created/)).toBeVisible();
  await expect(page.getByText(/is waiting for the patient/)).toBeVisible();
  await expect(page.getByRole("table", { name: "Recent Connect sessions" }).getByText("user patient-42")).toBeVisible();
  await expectAccessible(page, "sandbox with a created session");
  await keepScreenshot(page, testInfo, "sandbox-session-created");

  const [flow] = await Promise.all([context.waitForEvent("page"), page.getByRole("link", { name: /Open the hosted flow/ }).click()]);
  await flow.waitForLoadState();
  await expect(flow.getByRole("heading", { level: 1 })).toContainText("asks to see some of your health records");
  await flow.getByLabel("Search by name or city").fill("Dayton");
  await flow.getByRole("checkbox", { name: /Riverbend Health/ }).check();
  await flow.getByRole("button", { name: "Continue" }).click();
  await flow.getByRole("button", { name: "Sign in at Riverbend Health" }).click();
  await flow.getByRole("radio").first().check();
  await flow.getByRole("button", { name: "Allow" }).click();
  await flow.getByRole("link", { name: "Continue to review" }).click();
  await flow.getByRole("button", { name: /Share with/ }).click();
  await expect(flow.getByRole("heading", { level: 1 })).toContainText("You are sharing with");
  await keepScreenshot(flow, testInfo, "hosted-flow-done");

  await page.getByRole("link", { name: "Watch the session" }).click();
  await expect(page.getByTestId("simulation-state")).toHaveText("not simulated");
  await expect(page.getByRole("table", { name: "Sources of the session" }).getByText("synced")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("completed", { exact: true })).toBeVisible();
  await expectAccessible(page, "hosted session");
  await page.getByRole("link", { name: /Open subject u_/ }).click();
  await expect(page.getByText("consent active")).toBeVisible();
});

/** Fits the phone; on failure, names the elements that stick out. */
async function expectFitsPhone(page: Page) {
  const offenders = await page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .filter((element) => {
        if (["absolute", "fixed"].includes(getComputedStyle(element).position)) return true;
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          if (["auto", "hidden", "scroll"].includes(getComputedStyle(parent).overflowX)) return false;
        }
        return true;
      })
      .slice(0, 8)
      .map((element) => `${element.tagName}.${String(element.className).slice(0, 60)} ${getComputedStyle(element).position} ${Math.round(element.getBoundingClientRect().right)} "${(element.textContent ?? "").slice(0, 40)}"`),
  );
  await expectNoHorizontalOverflow(page).catch((error: Error) => {
    throw new Error(`${error.message}\n${offenders.join("\n")}`);
  });
}

test("simulate a pending session from its page", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Pending First");
  await openSandbox(page, applicationId);
  await page.getByRole("button", { name: "Create session" }).click();
  await page.getByRole("link", { name: "Watch the session" }).click();
  await expect(page.getByRole("heading", { name: "Waiting for the patient" })).toBeVisible();
  await expect(page.getByTestId("simulation-state")).toHaveText("not simulated");
  await expectAccessible(page, "pending session");
  await keepScreenshot(page, testInfo, "sandbox-session-pending");
  await page.getByRole("radio", { name: /Young child with a vaccination series/ }).check();
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(page.getByText(/Simulating pediatric-child on cs_/)).toBeVisible();
  await expect(page.getByTestId("simulation-state")).toHaveText("completed", { timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Waiting for the patient" })).toHaveCount(0);
  await page.getByRole("link", { name: /Open subject u_/ }).click();
  await page.getByRole("navigation", { name: "Record categories" }).getByRole("link", { name: /^immunizations/ }).click();
  const immunizations = page.getByRole("table", { name: /^immunizations records of u_/ });
  await expect(immunizations.getByText("CVX").first()).toBeVisible();
  await expectAccessible(page, "pediatric immunizations");
});

test("the sandbox fits a phone", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 740 });
  await signUp(page);
  const applicationId = await createApplication(page, "Pocket Sandbox");
  await page.goto(`/dashboard/${applicationId}/sandbox`);
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox" })).toBeVisible();
  await expectFitsPhone(page);
  await keepScreenshot(page, testInfo, "sandbox-phone");
  await simulateBaseline(page);
  await expectFitsPhone(page);
  await page.getByRole("link", { name: /Open subject u_/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Synthetic subject" })).toBeVisible();
  await expectFitsPhone(page);
  await keepScreenshot(page, testInfo, "sandbox-subject-phone");
});

test("another developer cannot open this sandbox or act on it through a server action", async ({ page, browser }) => {
  test.setTimeout(150_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Private Sandbox");
  await openSandbox(page, applicationId);
  const { sessionId } = await simulateBaseline(page);
  await page.getByRole("link", { name: /Open subject u_/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/subjects\/u_[A-Za-z0-9]+$/);
  const subject = /subjects\/(u_[A-Za-z0-9]+)/.exec(page.url())![1]!;

  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signUp(other);
  const ownApplicationId = await createApplication(other, "Someone Else");
  for (const path of ["sandbox", `sandbox/sessions/${sessionId}`, `sandbox/subjects/${subject}`, `sandbox/subjects/${subject}?category=labs`]) {
    await other.goto(`/dashboard/${applicationId}/${path}`);
    await expect(other.getByText("Application not found")).toBeVisible();
    await expect(other.getByText(subject)).toHaveCount(0);
    await expect(other.getByText(sessionId)).toHaveCount(0);
  }
  // The subject and the session under the other developer's own application: a real 404, not a 200 with a panel.
  const strangers: [string, string][] = [
    [`sandbox/subjects/${subject}`, "Subject not found"],
    [`sandbox/subjects/${subject}?category=labs`, "Subject not found"],
    ["sandbox/subjects/u_doesnotexist", "Subject not found"],
    [`sandbox/sessions/${sessionId}`, "Session not found"],
    ["sandbox/sessions/cs_doesnotexist", "Session not found"],
  ];
  for (const [path, panel] of strangers) {
    const response = await other.goto(`/dashboard/${ownApplicationId}/${path}`);
    expect(response?.status(), path).toBe(404);
    await expect(other.getByText(panel)).toBeVisible();
    await expect(other.getByText(subject)).toHaveCount(0);
  }
  expect((await page.goto(`/dashboard/${applicationId}/sandbox/subjects/${subject}`))?.status()).toBe(200);
  expect((await page.goto(`/dashboard/${applicationId}/sandbox/sessions/${sessionId}`))?.status()).toBe(200);

  // A crafted server-action call: the other developer's own "Create session" action, its application id swapped
  // for the first developer's. The action's own membership check refuses it; nothing is created there.
  await other.goto(`/dashboard/${ownApplicationId}/sandbox`);
  const crafted: { status: number; body: string }[] = [];
  await other.route(`**/dashboard/${ownApplicationId}/sandbox`, async (route) => {
    const request = route.request();
    if (request.method() !== "POST" || !request.headers()["next-action"]) return route.continue();
    const postData = request.postData() ?? "";
    expect(postData).toContain(ownApplicationId);
    const response = await route.fetch({ postData: postData.replaceAll(ownApplicationId, applicationId) });
    crafted.push({ status: response.status(), body: await response.text() });
    await route.fulfill({ response });
  });
  await other.getByLabel("External user id (optional)").fill("crafted-intruder");
  await other.getByRole("button", { name: "Create session" }).click();
  await expect.poll(() => crafted.length, { timeout: 15_000 }).toBeGreaterThan(0);
  expect(crafted[0]!.body).not.toContain("connectUrl");
  expect(crafted[0]!.body).toContain("Application not found.");
  await expect(other.getByRole("alert").filter({ hasText: "Application not found." })).toBeVisible();
  await expect(other.getByText(/Connect session cs_\w+ created/)).toHaveCount(0);
  await otherContext.close();

  await page.goto(`/dashboard/${applicationId}/sandbox`);
  await expect(page.getByRole("table", { name: "Recent Connect sessions" })).toBeVisible();
  await expect(page.getByText("crafted-intruder")).toHaveCount(0);
});

test("on a phone and a desktop: the subject page follows consent ending elsewhere, disables Revoke and Expire, and the checklist keeps the step", async ({ page, context }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page);
  const applicationId = await createApplication(page, "Stale State");
  await openSandbox(page, applicationId);
  await simulateBaseline(page);
  await page.getByRole("link", { name: /Open subject u_/ }).click();
  await expect(page.getByText("consent active")).toBeVisible();
  await expect(page.getByRole("button", { name: "Expire consent" })).toBeEnabled();
  // Item 9: every category tab is whole, at both widths (they wrap rather than clip "claims").
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const tab of await page.getByRole("navigation", { name: "Record categories" }).getByRole("link").all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x + box.width, `${(await tab.textContent()) ?? ""} at ${width}px`).toBeLessThanOrEqual(width);
      expect(await tab.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    }
  }

  // Consent ends from another tab; this one is never reloaded.
  const other = await context.newPage();
  await other.goto(page.url());
  await other.getByRole("button", { name: "Expire consent" }).click();
  await other.getByRole("alertdialog").getByRole("button", { name: "Expire consent" }).click();
  await expect(other.getByText(/Receipt expiry set to now/)).toBeVisible();
  // The tab that acted shows it at once: an expiry in the past reads expired before the worker marks it.
  await expect(other.getByText("consent expired", { exact: true })).toBeVisible();
  await other.close();

  await expect(page.getByText("consent expired", { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Revoke consent" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Expire consent" })).toBeDisabled();
  await expect(page.getByText("Consent has ended: there is no active receipt to revoke or expire.")).toBeVisible();
  await checkAtBothWidths(page, "subject after consent ended", 1280);

  // The getting-started step records that a patient was simulated, though none shares now.
  await page.goto(`/dashboard/${applicationId}`);
  await expect(page.getByRole("definition").filter({ hasText: /^0$/ }).first()).toBeVisible();
  await expect(page.getByText("Simulate a patient (done)")).toBeVisible();
  await checkAtBothWidths(page, "overview after consent ended", 390);
});
