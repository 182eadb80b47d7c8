import { expect, test } from "@playwright/test";
import { checkAtBothWidths, createApplication, signUp } from "./dashboard-helpers";

// The sandbox subject page tells, per source, when it last synced, when it syncs next and its last error: here a
// two-source scenario whose second health system cannot be reached.

// Walked on a phone; the subject page is also checked at a laptop's width.
test("on a phone and a desktop: each source's last sync, next sync and last error", async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page);
  const applicationId = await createApplication(page, "Source Sync");
  await page.goto(`/dashboard/${applicationId}/sandbox`);
  await page.getByRole("radio", { name: /One of two sources unavailable/ }).check();
  await page.getByRole("button", { name: "Simulate" }).click();
  await expect(page.getByTestId("simulation-state")).toHaveText("completed", { timeout: 60_000 });
  await page.getByRole("link", { name: /Open subject u_/ }).click();

  const sources = page.getByRole("table", { name: "Sources of the subject" });
  await expect(sources.getByText(/^source_unavailable: /)).toBeVisible();
  const headers = await sources.getByRole("columnheader").allTextContents();
  expect(headers).toEqual(expect.arrayContaining(["Last synced", "Next sync", "Last error"]));
  const rows = sources.getByRole("row");
  await expect(rows).toHaveCount(3);
  const cellOf = async (row: number, header: string) => (await rows.nth(row).getByRole("cell").nth(headers.indexOf(header)).textContent())?.trim();
  // The first source imported; the second failed with the SMART client's code and has never synced.
  expect(await cellOf(1, "Last synced")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(await cellOf(1, "Last error")).toBe("—");
  expect(await cellOf(2, "Last synced")).toBe("—");
  expect(await cellOf(2, "Last error")).toMatch(/^source_unavailable: /);
  // A one-time application's sources are imported once; nothing is scheduled.
  expect(await cellOf(1, "Next sync")).toBe("None: one-time consent imports once");

  // Each source's import history: the first imported, the second failed with the SMART client's code; a team member
  // re-runs the failed one and the history shows the re-run when the worker has run it.
  const histories = page.getByRole("table", { name: /^Import history of / });
  await expect(histories).toHaveCount(2);
  const failedHistory = histories.filter({ hasText: "source_unavailable" });
  await expect(failedHistory.getByRole("row")).toHaveCount(2);
  await expect(failedHistory.getByRole("row").nth(1)).toContainText("Connect");
  const failedName = (await failedHistory.locator("caption").textContent())!.replace("Import history of ", "");
  const importedHistory = histories.filter({ hasNotText: "source_unavailable" });
  const imported = await importedHistory.getByRole("row").nth(1).getByRole("cell").allTextContents();
  expect(imported[2]).toBe("completed");
  expect(Number(imported[4])).toBeGreaterThan(0);
  expect(Number(imported[5])).toBeGreaterThan(0);
  await page.getByRole("button", { name: `Re-run sync of ${failedName}` }).click();
  await expect(page.getByText(`Sync of ${failedName} queued`)).toBeVisible();
  const rerunHistory = page.getByRole("table", { name: `Import history of ${failedName}` });
  await expect(rerunHistory.getByRole("row")).toHaveCount(3, { timeout: 60_000 });
  await expect(rerunHistory.getByRole("row").nth(1)).toContainText("re-run");
  await expect(rerunHistory.getByRole("row").nth(1)).not.toContainText("running", { timeout: 60_000 });
  // Checked once the toast is gone: a toast fading out is mid-animation for axe's contrast check.
  await page.reload();
  await checkAtBothWidths(page, "subject sources", 390);
});
