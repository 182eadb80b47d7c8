import { devSandboxKey } from "@/test/e2e-platform";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { checkAtBothWidths, expectAccessible } from "./dashboard-helpers";

// A Spanish-speaking patient: the browser asks for Spanish (Accept-Language), and the hosted flow, the synthetic
// health system's sign-in page and the receipt answer in Spanish, with dates and counts in Spanish conventions. The
// switcher turns any of them back to English. At a phone's and a laptop's width.

let sandboxKey: string;
test.beforeAll(() => {
  sandboxKey = devSandboxKey();
});

async function createSession(request: APIRequestContext, baseURL: string, categories: string[]) {
  const response = await request.post("/api/v1/connect/sessions", {
    headers: { Authorization: `Bearer ${sandboxKey}` },
    data: { categories, redirectUrl: `${baseURL}/?returned=1`, externalUserId: `e2e-es-${Date.now()}-${Math.random()}` },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; connectUrl: string };
}

test.use({ locale: "es-MX" });

test("on a phone and a desktop: a patient completes Connect in Spanish and stops sharing from a Spanish receipt", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  // The flow is walked on a phone; each page checked is also checked on a desktop (checkAtBothWidths).
  await page.setViewportSize({ width: 390, height: 844 });
  const session = await createSession(request, baseURL!, ["labs", "medications", "allergies"]);

  await page.goto(session.connectUrl);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("pide ver algunos de sus registros de salud");
  await expect(page.locator("main")).toHaveAttribute("lang", "es");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page).toHaveTitle("Comparta sus registros de salud · Chartkey");
  await expect(page.getByText("Resultados de laboratorio").first()).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Progreso" }).getByText("Elegir")).toBeVisible();
  await checkAtBothWidths(page, "start in Spanish", 390);
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Elija al menos un sistema de salud" })).toBeVisible();
  await page.getByLabel("Buscar por nombre o ciudad").fill("zzz");
  await expect(page.getByText("Ningún sistema de salud coincide con «zzz».")).toBeVisible();
  await page.getByLabel("Buscar por nombre o ciudad").fill("Dayton");
  await page.getByRole("checkbox", { name: /Riverbend Health/ }).check();
  await page.getByRole("button", { name: "Continuar" }).click();

  // The health system's page follows the Connect language (ui_locales), names the application and what it asks.
  await page.getByRole("button", { name: "Iniciar sesión en Riverbend Health" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Inicie sesión en Riverbend Health" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByText(/, a través de Chartkey \(sandbox\), pide:/)).toBeVisible();
  await expect(page.getByRole("group", { name: "Elija un paciente" })).toContainText("Nació el 14 de junio de 1978");
  // Riverbend Health holds two patients (baseline-adult's and long-history's): the patient picks theirs.
  await page.getByRole("radio", { name: /Elena Marisol Vargas/ }).check();
  await checkAtBothWidths(page, "health system sign-in in Spanish", 390);
  await page.getByRole("button", { name: "Permitir" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Inicie sesión en cada sistema de salud" })).toBeVisible();
  await expect(page.getByText("Sesión iniciada")).toBeVisible();
  await page.getByRole("link", { name: "Continuar a la revisión" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Revise lo que comparte" })).toBeVisible();
  // A date a year from now, in Spanish: "25 de noviembre de 2027".
  await expect(page.getByText(/hasta el \d{1,2} de [a-z]+ de \d{4}/)).toBeVisible();
  await checkAtBothWidths(page, "review in Spanish", 390);
  await page.getByRole("button", { name: /Compartir con/ }).click();

  await expect(page.getByRole("heading", { level: 1 })).toContainText("Está compartiendo con");
  const progress = page.locator('[data-status="synced"]');
  await expect(progress).toBeVisible({ timeout: 30_000 });
  await expect(progress).toHaveText(/^Listo · \d+ registros?$/);
  // Once every source settled the heading no longer says the import is under way.
  await expect(page.getByRole("heading", { level: 2, name: "Importación terminada" })).toBeVisible();
  await checkAtBothWidths(page, "done in Spanish", 390);

  await page.getByRole("link", { name: "su comprobante de acceso compartido" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Lo que comparte con");
  await expect(page.getByText("Compartiendo ahora")).toBeVisible();
  await expect(page).toHaveTitle("Su comprobante de acceso compartido · Chartkey");
  await page.getByRole("link", { name: /Dejar de compartir con/ }).click();
  const confirm = page.getByRole("region", { name: /¿Dejar de compartir con .*\?/ });
  await expect(confirm).toContainText("No se puede deshacer");
  await checkAtBothWidths(page, "revoke confirmation in Spanish", 390);
  await page.getByRole("button", { name: "Sí, dejar de compartir" }).click();
  await expect(page.getByRole("status")).toContainText("Dejó de compartir.");

  // The switcher: English from here on, for this browser, whatever it asks for.
  await page.getByRole("form", { name: "Idioma" }).getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("What you share with");
  await expect(page.getByText("You stopped sharing").first()).toBeVisible();
  await expect(page.locator("main")).toHaveAttribute("lang", "en");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("form", { name: "Language" }).getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "true");
  await page.goto(session.connectUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^You stopped sharing with /);
  await page.getByRole("form", { name: "Language" }).getByRole("button", { name: "Español" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Dejó de compartir con /);
});

test("an unknown receipt link and an expired-looking Connect link answer in Spanish", async ({ page }) => {
  const receipt = await page.goto("/consent/not-a-real-token");
  expect(receipt?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "No encontramos esta página" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("link", { name: "Ir a la página de inicio de Chartkey" })).toBeVisible();
  await expectAccessible(page, "not found in Spanish");
  const link = await page.goto("/connect/not-a-real-token");
  expect(link?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Este enlace no es válido" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
});
