import { devSandboxKey } from "@/test/e2e-platform";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { checkAtBothWidths } from "./dashboard-helpers";

// A patient deletes the copy Chartkey holds from their receipt page (issue 53, point 3), in two taps: the
// confirmation says what is deleted, what the application already received and keeps, and what Chartkey keeps; the
// page then says it was done and when, and the application's reads of the subject answer 404. English and Spanish,
// at a phone's and a laptop's width, checked with axe. The same page shows the patient's own view (issue 53, point
// 4): the health systems shared from, the records per category, and who read what and when, AI agents with the
// purpose they declared, with a JSON download of the same history.

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

/** Reads as an application makes them: a category with the key, and three reads of labs by an AI agent it issued a credential to. */
async function readsWithAgent(request: APIRequestContext, subject: string, purpose: string) {
  expect((await request.get(`/api/v1/users/${subject}/records/conditions`, { headers: auth() })).status()).toBe(200);
  const issued = await request.post("/api/v1/agent-credentials", { headers: auth(), data: { subject, categories: ["labs"], purpose, durationSeconds: 600 } });
  expect(issued.status()).toBe(201);
  const { token } = (await issued.json()) as { token: string };
  for (let read = 0; read < 3; read++) {
    expect((await request.get(`/api/v1/users/${subject}/records/labs`, { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
  }
}

test("the patient sees where their records come from, how many the application can read, and who read what, and downloads it", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { subject, receiptUrl } = await sharingPatient(request);
  await readsWithAgent(request, subject, "Plot the A1c trend");
  await page.setViewportSize({ width: 390, height: 844 });
  const agentLine = /An AI agent of .+, purpose: “Plot the A1c trend”, read Lab results 3 times\./;
  // The request log is written off the request path, within a second.
  await expect(async () => {
    await page.goto(receiptUrl);
    await expect(page.getByRole("region", { name: /When .+ read your records/ })).toContainText(agentLine);
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("region", { name: "Where your records come from" })).toContainText(/Last updated \w+ \d{1,2}, \d{4}/);
  const counts = page.getByRole("region", { name: /What .+ can read now/ });
  await expect(counts).toContainText("Lab results");
  await expect(counts).toContainText(/\d+ records?/);
  const history = page.getByRole("region", { name: /When .+ read your records/ });
  await expect(history).toContainText("5 requests · 3 of them by AI agents");
  await expect(history).toContainText("Read: your whole shared record once, Lab results 3 times, and Conditions once");
  await expect(history).toContainText(/Could read: Lab results\. Access given/);
  await checkAtBothWidths(page, "receipt with the disclosure history", 390);

  const download = await request.get(`${receiptUrl}/history`);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename="chartkey-disclosures-\d{4}-\d{2}-\d{2}\.json"$/);
  expect(download.headers()["cache-control"]).toBe("no-store");
  const json = (await download.json()) as { subject: string; history: { requests: number; agents: { purpose: string; requests: number }[] } };
  expect(json.subject).toBe(subject);
  expect(json.history.requests).toBe(5);
  expect(json.history.agents).toEqual([expect.objectContaining({ purpose: "Plot the A1c trend", requests: 3 })]);
  expect((await request.get(`${receiptUrl.replace(/[^/]+$/, "not-a-token")}/history`)).status()).toBe(404);
});

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

  test("the patient's own view in Spanish: the AI agent's purpose and reads", async ({ page, request }) => {
    test.setTimeout(120_000);
    const { subject, receiptUrl } = await sharingPatient(request);
    await readsWithAgent(request, subject, "Resumir los análisis recientes");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(async () => {
      await page.goto(receiptUrl);
      await expect(page.getByRole("region", { name: /Cuándo leyó .+ sus registros/ })).toContainText(
        /Un agente de IA de .+, propósito: «Resumir los análisis recientes», leyó Resultados de laboratorio 3 veces\./,
      );
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole("region", { name: "De dónde vienen sus registros" })).toContainText("Última actualización:");
    await expect(page.getByRole("region", { name: /Cuándo leyó .+ sus registros/ })).toContainText("5 solicitudes · 3 de ellas por agentes de IA");
    await expect(page.getByRole("link", { name: "Descargar este historial (JSON)" })).toBeVisible();
    await checkAtBothWidths(page, "receipt with the disclosure history in Spanish", 1280);
  });

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
