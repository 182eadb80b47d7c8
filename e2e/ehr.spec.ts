import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible, expectNoHorizontalOverflow } from "./dashboard-helpers";

// The synthetic health system's authorization page in Chromium on a phone (and what it asks, on a desktop too):
// readable, usable from the keyboard, and Allow or Deny returns to the client with the state.

test.use({ viewport: { width: 390, height: 844 } });

const PROVIDER = "riverbend-health";

function authorizeUrl(baseURL: string | undefined, extra: Record<string, string> = {}, provider = PROVIDER): { url: string; redirectUri: string; state: string } {
  if (!baseURL) throw new Error("the Playwright config sets baseURL");
  // On this server, so the redirect lands on a page that exists; a loopback URL is registered on any port.
  const redirectUri = `${baseURL}/?from=ehr-e2e`;
  const state = randomBytes(12).toString("base64url");
  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
  const parameters = new URLSearchParams({
    response_type: "code",
    client_id: "chartkey-sandbox",
    redirect_uri: redirectUri,
    scope: "launch/patient offline_access patient/*.read",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  });
  return { url: `/ehr/${provider}/authorize?${parameters}`, redirectUri, state };
}

test("a patient picks their record with the keyboard and Allow returns a code and the state", async ({ page, baseURL }) => {
  const { url, state } = authorizeUrl(baseURL);
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");
  await expect(page).toHaveTitle("Sign in to Riverbend Health");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to Riverbend Health" })).toBeVisible();
  // The nonce'd stylesheet applied under the page's policy, and nothing is wider than the phone.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(243, 244, 246)");
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  const patient = page.getByRole("radio", { name: /Elena Marisol Vargas/ });
  await expect(page.getByRole("group", { name: "Choose a patient" })).toContainText("Born June 14, 1978");
  // First the page's language link, then the patient.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Español" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(patient).toBeFocused();
  await page.keyboard.press("Space");
  await expect(patient).toBeChecked();
  await page.keyboard.press("Tab");
  const allow = page.getByRole("button", { name: "Allow" });
  await expect(allow).toBeFocused();
  expect(await allow.evaluate((button) => getComputedStyle(button).outlineStyle)).toBe("solid");

  await page.keyboard.press("Enter");
  await page.waitForURL(/from=ehr-e2e/);
  const landed = new URL(page.url());
  expect(landed.pathname).toBe("/");
  expect(landed.searchParams.get("state")).toBe(state);
  expect(landed.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`on a ${viewport.name}: the page names the application the record goes to and the parts of the record asked for`, async ({ page, baseURL }) => {
    await page.setViewportSize(viewport);
    const { url } = authorizeUrl(baseURL, { on_behalf_of: "Harbor Diabetes Coach", scope: "launch/patient offline_access patient/Observation.read patient/Condition.read" });
    await page.goto(url);
    await expect(page.getByText("Harbor Diabetes Coach, through Chartkey (sandbox), is asking to:")).toBeVisible();
    const asks = page.getByRole("list").first();
    await expect(asks).toContainText("Read these parts of your record: lab results and vital signs, conditions and diagnoses");
    await expect(asks).not.toContainText("whole health record");
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page, "authorization page");
  });
}

test("the only patient is chosen already; Deny returns access_denied with the state", async ({ page, baseURL }) => {
  const { url, state } = authorizeUrl(baseURL, {}, "willowbrook-childrens");
  await page.goto(url);
  // Willowbrook has one fictional patient: preselected, so the browser never asks to "select one of these options".
  await expect(page.getByRole("radio")).toHaveCount(1);
  await expect(page.getByRole("radio")).toBeChecked();

  await page.getByRole("button", { name: "Deny" }).click();
  await page.waitForURL(/from=ehr-e2e/);
  const landed = new URL(page.url());
  expect(landed.searchParams.get("error")).toBe("access_denied");
  expect(landed.searchParams.get("state")).toBe(state);
  expect(landed.searchParams.get("code")).toBeNull();
});

test("an unregistered redirect URI gets an error page, not a redirect", async ({ page, baseURL }) => {
  const { url } = authorizeUrl(baseURL);
  const response = await page.goto(url.replace(/redirect_uri=[^&]+/, `redirect_uri=${encodeURIComponent("https://evil.example/cb")}`));
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("not registered");
  expect(new URL(page.url()).pathname).toBe(`/ehr/${PROVIDER}/authorize`);
});

test("the built app routes the SMART configuration under .well-known and the FHIR metadata", async ({ request }) => {
  const configuration = await request.get(`/ehr/${PROVIDER}/fhir/.well-known/smart-configuration`);
  expect(configuration.status()).toBe(200);
  expect(await configuration.json()).toMatchObject({ code_challenge_methods_supported: ["S256"], token_endpoint: expect.stringMatching(/\/ehr\/riverbend-health\/token$/) });
  const metadata = await request.get(`/ehr/${PROVIDER}/fhir/metadata`);
  expect(metadata.status()).toBe(200);
  expect((await metadata.json()).resourceType).toBe("CapabilityStatement");
  const search = await request.get(`/ehr/${PROVIDER}/fhir/Observation`);
  expect(search.status()).toBe(401);
  expect((await search.json()).resourceType).toBe("OperationOutcome");
});

// What an application asking for medications and lab results sends a SMART v2 server (lib/sources/smart-scopes.ts):
// the consent page lists exactly that, the context those records name after it, never vital signs.
const GRANULAR_SCOPE = [
  "launch/patient",
  "offline_access",
  "patient/MedicationRequest.rs",
  "patient/MedicationStatement.rs",
  "patient/MedicationDispense.rs",
  "patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory",
  "patient/DiagnosticReport.rs?category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB",
  "patient/Encounter.rs",
  "patient/Medication.rs",
  "patient/Practitioner.rs",
  "patient/Organization.rs",
  "patient/Location.rs",
  "patient/Specimen.rs",
].join(" ");

for (const { locale, asks, context, details } of [
  {
    locale: "en",
    asks: "Read these parts of your record: medications, lab results, lab reports",
    context: "And what those records name: visits, the names of your care team, the names of the places you received care, lab samples",
    details: ["Born June 14, 1978 · Female · Dayton, OH", "Born October 27, 1974 · Female · Kettering, OH"],
  },
  {
    locale: "es",
    asks: "Leer estas partes de su expediente: medicamentos, resultados de laboratorio, informes de laboratorio",
    context: "Y lo que esos registros mencionan: consultas, los nombres de su equipo de atención, los nombres de los lugares donde recibió atención, muestras de laboratorio",
    details: ["Nació el 14 de junio de 1978 · Mujer · Dayton, OH", "Nació el 27 de octubre de 1974 · Mujer · Kettering, OH"],
  },
]) {
  for (const width of [390, 1280]) {
    test(`granular request, ${locale}, ${width} px: the page lists exactly the categories asked, and the patients by name and distinct details`, async ({ page, baseURL }) => {
      await page.setViewportSize({ width, height: 900 });
      const missing: string[] = [];
      page.on("response", (response) => {
        if (response.status() === 404) missing.push(response.url());
      });
      const { url } = authorizeUrl(baseURL, { scope: GRANULAR_SCOPE, ui_locales: locale, on_behalf_of: "Harbor Diabetes Coach" });
      await page.goto(url);
      const asked = page.getByRole("list").first();
      await expect(asked.getByRole("listitem").nth(0)).toHaveText(asks);
      await expect(asked.getByRole("listitem").nth(1)).toHaveText(context);
      await expect(asked).not.toContainText(locale === "en" ? "vital signs" : "signos vitales");
      // Two different people at Riverbend, told apart by birth date, sex and town; no internal record id.
      const patients = page.getByRole("radio");
      await expect(patients).toHaveCount(2);
      for (const [index, detail] of details.entries()) await expect(page.locator(`#patient-${index}-detail`)).toHaveText(detail);
      await expect(page.locator("fieldset")).not.toContainText(/record |expediente |baseline|patient-/);
      // The page has an icon of its own: the browser asks for no /favicon.ico.
      expect(await page.locator('link[rel="icon"]').getAttribute("href")).toMatch(/^data:image\/svg\+xml,/);
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page, `authorization page (${locale}, ${width} px)`);
      expect(missing).toEqual([]);
    });
  }
}
