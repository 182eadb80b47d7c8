import { devSandboxKey } from "@/test/e2e-platform";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { checkAtBothWidths } from "./dashboard-helpers";

// A patient deletes the copy Chartkey holds from their receipt page (issue 53, point 3), in two taps: the
// confirmation says what is deleted, what the application already received and keeps, and what Chartkey keeps; the
// page then says it was done and when, and the application's reads of the subject answer 404. English and Spanish,
// at a phone's and a laptop's width, checked with axe.

let sandboxKey: string;
test.beforeAll(() => {
  sandboxKey = devSandboxKey();
});
const auth = () => ({ Authorization: `Bearer ${sandboxKey}` });

/** A simulated patient sharing with the development application, and their receipt page's address. */
async function sharingPatient(request: APIRequestContext) {
  const created = await request.post("/api/v1/connect/sessions", { headers: auth(), data: { categories: ["labs", "conditions"] } });
  expect(created.status()).toBe(201);
  const session = (await created.json()) as { id: string };
  const simulated = await request.post(`/api/v1/connect/sessions/${session.id}/simulate`, { headers: auth(), data: { scenario: "baseline-adult" } });
  expect(simulated.status()).toBe(200);
  const read = async () => (await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers: auth() })).json()) as { subject: string; receiptId: string; simulation: { state: string } };
  await expect.poll(async () => (await read()).simulation.state, { timeout: 60_000 }).toBe("completed");
  const { subject, receiptId } = await read();
  const receipt = (await (await request.get(`/api/v1/consents/${receiptId}`, { headers: auth() })).json()) as { receiptUrl: string };
  expect((await request.get(`/api/v1/users/${subject}/records`, { headers: auth() })).status()).toBe(200);
  return { subject, receiptUrl: receipt.receiptUrl };
}

test("a patient deletes Chartkey's copy while sharing: stop and delete in two taps, then the page says when", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { subject, receiptUrl } = await sharingPatient(request);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(receiptUrl);
  await expect(page.getByText("Sharing now")).toBeVisible();
  await page.getByRole("link", { name: "Delete the copy Chartkey holds…" }).click();
  const confirm = page.getByRole("region", { name: "Delete the copy Chartkey holds?" });
  await expect(confirm).toContainText("You stop sharing with");
  await expect(confirm).toContainText("deletes the records it read from your health systems");
  await expect(confirm).toContainText("keeps the records it already received");
  await expect(confirm).toContainText("Chartkey keeps this receipt");
  await checkAtBothWidths(page, "deletion confirmation", 390);
  await page.getByRole("button", { name: "Yes, stop sharing and delete" }).click();
  await expect(page.getByRole("status")).toContainText(/Chartkey deleted its copy of your records on \w+ \d{1,2}, \d{4}\./);
  await expect(page.getByText("You stopped sharing").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Delete the copy Chartkey holds…" })).toHaveCount(0);
  await checkAtBothWidths(page, "deleted receipt", 1280);
  expect((await request.get(`/api/v1/users/${subject}/records`, { headers: auth() })).status()).toBe(404);
});

test.describe("in Spanish", () => {
  test.use({ locale: "es-MX" });

  test("after stopping sharing, a patient deletes Chartkey's copy; the page says when, in Spanish", async ({ page, request }) => {
    test.setTimeout(120_000);
    const { receiptUrl } = await sharingPatient(request);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(receiptUrl);
    await page.getByRole("link", { name: /Dejar de compartir con/ }).click();
    await page.getByRole("button", { name: "Sí, dejar de compartir" }).click();
    await expect(page.getByRole("status")).toContainText("Dejó de compartir.");
    await page.getByRole("link", { name: "Borrar la copia que guarda Chartkey…" }).click();
    const confirm = page.getByRole("region", { name: "¿Borrar la copia que guarda Chartkey?" });
    await expect(confirm).toContainText("conserva los registros que ya recibió");
    await expect(confirm).not.toContainText("Deja de compartir");
    await checkAtBothWidths(page, "deletion confirmation in Spanish", 390);
    await page.getByRole("button", { name: "Sí, borrar la copia de Chartkey" }).click();
    await expect(page.getByRole("status")).toContainText(/Chartkey borró su copia de sus registros el \d{1,2} de [a-z]+ de \d{4}\./);
    await checkAtBothWidths(page, "deleted receipt in Spanish", 1280);
  });
});
