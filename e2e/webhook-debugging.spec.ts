import { expect, test } from "@playwright/test";
import { startReceiver } from "@/test/webhook-receiver";
import { checkAtBothWidths, createApplication, signUp } from "./dashboard-helpers";

// Issue 26, item 7: a delivery to an endpoint answering 500 shows the endpoint's answer (its first 500 characters),
// and a developer who fixed the endpoint re-sends at once instead of waiting for the next retry.

// Walked on a phone; the attempt's page is also checked at a laptop's width.
test("on a phone and a desktop: a failing endpoint's answer is shown, and a pending delivery is re-sent at once", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page);
  const applicationId = await createApplication(page, "Failing Hooks");
  await page.goto(`/dashboard/${applicationId}/webhooks`);
  await page.getByRole("button", { name: "Reveal secret" }).click();
  const secret = (await page.locator("pre").filter({ hasText: /^whsec_/ }).textContent())!.trim();
  const receiver = await startReceiver(secret);
  try {
    // The receiver answers 500 with a 1,020-character body ("receiver says no " 60 times).
    receiver.setResponder(() => 500);
    await page.getByLabel("Endpoint URL").fill(`${receiver.origin}/hooks`);
    await page.getByRole("button", { name: "Save URL" }).click();
    // Each action's own answer (its toast) before the next step, as dashboard-webhooks.spec.ts waits: in one CI run,
    // Send clicked the moment the new URL showed queued nothing, and the test only failed 30 s later at the receiver.
    await expect(page.getByText(`Webhooks now go to ${receiver.origin}/hooks`)).toBeVisible();
    await expect(page.getByText(`Current: ${receiver.origin}/hooks`)).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText(/Test event evt_\S+ queued for delivery/)).toBeVisible();
    await expect.poll(() => receiver.arrivals(), { timeout: 30_000 }).toBe(1);

    const row = page.getByRole("table", { name: "Webhook deliveries" }).getByRole("row", { name: /webhook\.test/ });
    await row.getByRole("link", { name: /webhook\.test.*delivery whd_/ }).click();
    const attempts = page.getByRole("table", { name: "Delivery attempts" });
    await expect(attempts).toContainText("HTTP 500", { timeout: 20_000 });
    const answer = attempts.getByText(/^(receiver says no )+/);
    await expect(answer).toBeVisible();
    expect(((await answer.textContent()) ?? "").length).toBe(500);
    await expect(page.getByText("Fixed your endpoint? Re-send now")).toBeVisible();
    // A delivery that failed an attempt reads retrying, never pending, and the log says why.
    await expect(page.getByText("retrying", { exact: true })).toBeVisible();
    await checkAtBothWidths(page, "failed attempt with the endpoint's answer", 390);
    const deliveryPage = page.url();
    await page.goto(`/dashboard/${applicationId}/webhooks`);
    const listed = page.getByRole("table", { name: "Webhook deliveries" }).getByRole("row", { name: /webhook\.test/ });
    await expect(listed).toContainText("retrying");
    await expect(listed).toContainText("Last attempt: HTTP 500");
    await page.goto(deliveryPage);

    // Fixed; the next retry is 16 s away at the earliest, but Re-send works now.
    receiver.setResponder(() => 200);
    await page.getByRole("button", { name: "Re-send" }).click();
    const toast = page.getByText(/Re-sent as a new delivery \(whd_/);
    await expect(toast).toBeVisible();
    const resent = /(whd_[A-Za-z0-9]+)/.exec((await toast.textContent()) ?? "")![1]!;
    await page.goto(`/dashboard/${applicationId}/webhooks/${resent}`);
    await expect(page.getByRole("table", { name: "Delivery attempts" })).toContainText("200", { timeout: 15_000 });
  } finally {
    await receiver.close();
  }
});
