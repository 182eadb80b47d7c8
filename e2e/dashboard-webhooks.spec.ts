import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { loadLocalEnv } from "@/lib/config";
import { platformDatabaseUrl } from "@/test/e2e-platform";
import { startReceiver, type Received } from "@/test/webhook-receiver";
import { createApplication, expectAccessible, expectNoHorizontalOverflow, keepScreenshot, newDeveloper, signUp } from "./dashboard-helpers";

function verifies(secret: string, delivery: Received): boolean {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

const secretShown = (page: Page) => page.locator("pre").filter({ hasText: /^whsec_/ });
const deliveries = (page: Page) => page.getByRole("table", { name: "Webhook deliveries" });

test("set the endpoint, reveal and copy the secret, deliver and re-send a verified test event, rotate the secret", async ({ page, context }, testInfo) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUp(page);
  const applicationId = await createApplication(page, "Hook Catcher");

  await page.getByRole("navigation", { name: "Application" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(`/dashboard/${applicationId}/webhooks`);
  await expect(page.getByText("No deliveries yet")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
  await expect(secretShown(page)).toHaveCount(0);
  await expectAccessible(page);

  // Reveal and copy the secret.
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(secretShown(page)).toBeVisible();
  const secret = (await secretShown(page).textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Copy: signing secret" }).click();
  await expect(page.getByText("Signing secret copied to the clipboard")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  // Said on the secret's dark panel, readably.
  await expectAccessible(page, "the secret just copied", ["[role=status]"]);

  const receiver = await startReceiver(secret);
  try {
    // The domain's refusal is shown as it is.
    const url = page.getByLabel("Endpoint URL");
    await url.fill("ftp://example.com/hooks");
    await page.getByRole("button", { name: "Save URL" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The webhook URL is not allowed" })).toBeVisible();

    await url.fill(`${receiver.origin}/hooks`);
    await page.getByRole("button", { name: "Save URL" }).click();
    await expect(page.getByText(`Webhooks now go to ${receiver.origin}/hooks`)).toBeVisible();
    await expect(page.getByText(`Current: ${receiver.origin}/hooks`)).toBeVisible();

    // A test event: queued, delivered, verified by the receiver with the revealed secret, and logged with its answer.
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText(/Test event evt_\S+ queued for delivery/)).toBeVisible();
    await expect.poll(() => receiver.received.filter((delivery) => delivery.type === "webhook.test").length, { timeout: 60_000 }).toBe(1);
    const first = receiver.received[0]!;
    expect(receiver.rejected).toEqual([]);
    const row = deliveries(page).getByRole("row", { name: /webhook\.test/ });
    // The log refreshes itself while a delivery is pending.
    await expect(row).toContainText("succeeded", { timeout: 20_000 });
    await expect(row).toContainText("200");
    await expect(row).toContainText(/\d+ ms/);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, "webhooks");

    // Its exact payload and attempts, then a re-send that reaches the receiver as a second delivery of the same event.
    await row.getByRole("link", { name: /webhook\.test.*delivery whd_/ }).click();
    await expect(page.getByRole("heading", { name: "webhook.test", level: 1 })).toBeVisible();
    await expect(page.locator("pre").first()).toHaveText(first.body);
    const attempts = page.getByRole("table", { name: "Delivery attempts" });
    await expect(attempts.getByRole("row")).toHaveCount(2);
    await expect(attempts).toContainText("200");
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, "webhook-delivery");

    await page.getByRole("button", { name: "Re-send" }).click();
    await expect(page.getByText(/Re-sent as a new delivery \(whd_/)).toBeVisible();
    await expect.poll(() => receiver.received.filter((delivery) => delivery.id === first.id).length, { timeout: 60_000 }).toBe(2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(first.id);

    await expect(page.getByRole("link", { name: "← All deliveries" })).toHaveAttribute("href", `/dashboard/${applicationId}/webhooks`);
    await page.goto(`/dashboard/${applicationId}/webhooks/whd_doesnotexist0000000000`);
    await expect(page.getByText("Delivery not found")).toBeVisible();
    await page.goto(`/dashboard/${applicationId}/webhooks`);
    await expect(async () => {
      await page.reload();
      await expect(deliveries(page).getByRole("row", { name: /webhook\.test/ })).toHaveCount(2, { timeout: 1_000 });
      await expect(deliveries(page).getByRole("row", { name: /webhook\.test/ }).filter({ hasText: "succeeded" })).toHaveCount(2, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });

    // A sample of a business event, for trying the receiver's handler of that type: signed, verified, marked a sample.
    await page.getByLabel("Event type").selectOption("records.updated");
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText(/Sample records\.updated event evt_\S+ queued for delivery/)).toBeVisible();
    await expect.poll(() => receiver.received.filter((delivery) => delivery.type === "records.updated").length, { timeout: 60_000 }).toBe(1);
    expect(receiver.received.find((delivery) => delivery.type === "records.updated")!.payload).toMatchObject({ data: { sample: true, upserts: 3, deletes: 1 } });
    expect(receiver.rejected).toEqual([]);

    // Filtering by status.
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Apply filter" }).click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(page.getByText("No matching deliveries")).toBeVisible();
    await page.goto(`/dashboard/${applicationId}/webhooks`);

    // Rotation: the next delivery verifies with both the old and the new secret.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("keeps verifying for 24 hours");
    await confirm.getByRole("button", { name: "Rotate secret" }).click();
    await expect(page.getByText(/Signing secret rotated\. The old secret keeps verifying until \d{4}-\d\d-\d\d \d\d:\d\d UTC/)).toBeVisible();
    await expect(page.getByText(/The previous secret also keeps verifying until/)).toBeVisible();
    const rotated = (await secretShown(page).textContent())!.trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);

    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText(/Test event evt_\S+ queued for delivery/).last()).toBeVisible();
    const testAfterRotation = (delivery: (typeof receiver.received)[number]) => delivery.id !== first.id && delivery.type === "webhook.test";
    await expect.poll(() => receiver.received.filter(testAfterRotation).length, { timeout: 60_000 }).toBe(1);
    const afterRotation = receiver.received.find(testAfterRotation)!;
    expect(String(afterRotation.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(secret, afterRotation)).toBe(true);
    expect(verifies(rotated, afterRotation)).toBe(true);
    expect(verifies(secret, first)).toBe(true);
    expect(verifies(rotated, first)).toBe(false);
    expect(receiver.rejected).toEqual([]);

    // A phone's width.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect(deliveries(page)).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, "webhooks-phone");
    await deliveries(page).getByRole("link", { name: /webhook\.test/ }).first().click();
    await expect(page.getByRole("heading", { name: "webhook.test", level: 1 })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await keepScreenshot(page, testInfo, "webhook-delivery-phone");
  } finally {
    await receiver.close();
  }
});

test("a member sets the URL and sends tests but cannot see or rotate the secret; a stranger cannot open the page", async ({ page, browser }, testInfo) => {
  test.setTimeout(150_000);
  await signUp(page);
  const applicationId = await createApplication(page, "Shared Hooks");
  await page.goto(`/dashboard/${applicationId}/webhooks`);
  await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/hooks");
  await page.getByRole("button", { name: "Save URL" }).click();
  await expect(page.getByText("Webhooks now go to http://127.0.0.1:9/hooks")).toBeVisible();
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText(/queued for delivery/)).toBeVisible();
  await expect(deliveries(page).getByRole("row", { name: /webhook\.test/ })).toHaveCount(1);
  const ownerDelivery = (await deliveries(page).getByRole("link", { name: /webhook\.test/ }).getAttribute("href"))!;

  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  const member = await signUp(other, newDeveloper("member"));

  // Not yet a member: the page and the delivery are "not found", as for an application that does not exist.
  await other.goto(`/dashboard/${applicationId}/webhooks`);
  await expect(other.getByText(/Application not found|could not be found/)).toBeVisible();
  await expect(other.getByLabel("Endpoint URL")).toHaveCount(0);
  await other.goto(ownerDelivery);
  await expect(other.getByText(/(Application|Delivery) not found|could not be found/)).toBeVisible();
  await expect(other.getByText("webhook.test")).toHaveCount(0);
  // The owner's delivery id under the stranger's own application: a real 404, as for an id that does not exist.
  const ownApplication = await createApplication(other, "Stranger Hooks");
  const deliveryId = ownerDelivery.split("/").pop()!;
  for (const id of [deliveryId, "whd_doesnotexist"]) {
    const response = await other.goto(`/dashboard/${ownApplication}/webhooks/${id}`);
    expect(response?.status(), id).toBe(404);
    await expect(other.getByText("Delivery not found")).toBeVisible();
    await expect(other.getByText("webhook.test")).toHaveCount(0);
  }
  expect((await page.goto(ownerDelivery))?.status()).toBe(200);

  // The team page is built elsewhere; the membership is written where the platform keeps it.
  await loadLocalEnv();
  const database = new pg.Client({ connectionString: platformDatabaseUrl() });
  await database.connect();
  try {
    await database.query(
      `INSERT INTO "ApplicationMember" ("applicationId", "developerId", "role") SELECT $1, id, 'member' FROM "Developer" WHERE email = $2`,
      [applicationId, member.email],
    );
  } finally {
    await database.end();
  }

  await other.goto(`/dashboard/${applicationId}/webhooks`);
  await expect(other.getByText("Only owners can reveal or rotate the signing secret.")).toBeVisible();
  await expect(other.getByRole("button", { name: "Reveal secret" })).toHaveCount(0);
  await expect(other.getByRole("button", { name: "Rotate secret" })).toHaveCount(0);
  await expect(other.locator("pre").filter({ hasText: /whsec_/ })).toHaveCount(0);
  await expect(other.getByLabel("Endpoint URL")).toHaveValue("http://127.0.0.1:9/hooks");
  await other.getByRole("button", { name: "Send test event" }).click();
  await expect(other.getByText(/queued for delivery/)).toBeVisible();
  await expect(deliveries(other).getByRole("row", { name: /webhook\.test/ })).toHaveCount(2);
  await other.goto(ownerDelivery);
  await expect(other.getByRole("heading", { name: "webhook.test", level: 1 })).toBeVisible();
  await expectAccessible(other);
  await keepScreenshot(other, testInfo, "webhooks-member-delivery");
  await otherContext.close();
});
