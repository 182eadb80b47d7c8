import { expect, test, type Browser, type Page } from "@playwright/test";
import { startThirdPartySmartServer, type ThirdPartySmartServer } from "@/test/third-party-smart/server";
import { LIVE_OPERATOR_EMAIL } from "../playwright.config";
import { createApplication, createLiveKey, enrolAuthenticator, expectAccessible, newDeveloper, signUp } from "./dashboard-helpers";

// Going live end to end in Chromium, against a SMART on FHIR server no code of ours serves (oidc-provider in front
// of @medplum/fhir-router, test/third-party-smart): the operator adds it through the dashboard, a developer's
// application is approved and gets a live key, and a patient connects through the live Connect flow, signing in
// at oidc-provider's own pages. The deployment allows the server's host by CHARTKEY_PROVIDER_PRIVATE_HOSTS.

let smart: ThirdPartySmartServer;

test.beforeAll(async ({ baseURL }) => {
  const origin = new URL(baseURL!);
  smart = await startThirdPartySmartServer({ redirectUris: [`${origin.origin}/connect/callback`, `http://localhost:${origin.port}/connect/callback`] });
});
test.afterAll(async () => smart?.stop());

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/**
 * The patient's Connect page at 390 and 1280 px, in Spanish then English again (the flow's own language switcher):
 * the notice of a broader request shows, and axe passes.
 */
async function expectBroaderNoticeEverywhere(page: Page, [english, spanish]: [string, string]) {
  for (const [language, text] of [
    ["Español", spanish],
    ["English", english],
  ] as const) {
    await page.getByRole("button", { name: language }).click();
    await expect(page.getByTestId("broader-request")).toContainText(text);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByTestId("broader-request")).toBeVisible();
      await expectAccessible(page, `${page.url()} (${language}, ${width} px)`);
    }
  }
}

test("an operator adds a third-party SMART server, an approved application's live Connect session imports from it", async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const providerName = `Third Party Health ${stamp}`;
  const city = `Springfield ${stamp}`;
  const appName = `Live Labs ${stamp}`;

  // The operator adds the server by its FHIR base URL through the dashboard.
  const operator = await newPage(browser);
  await signUp(operator, { ...newDeveloper("live-operator"), email: LIVE_OPERATOR_EMAIL });
  // An operator has a second factor before the operator pages (issue 57).
  await enrolAuthenticator(operator);
  await operator.goto("/dashboard/operator/providers");
  await operator.getByRole("textbox", { name: "FHIR base URL" }).fill(smart.fhirBaseUrl);
  await operator.getByRole("button", { name: "Look up" }).click();
  await expect(operator.getByText(`Found a SMART on FHIR server at ${smart.fhirBaseUrl}`)).toBeVisible();
  await operator.getByLabel("Display name", { exact: true }).fill(providerName);
  await operator.getByLabel("City and region", { exact: true }).fill(city);
  await operator.getByLabel("Client id", { exact: true }).fill(smart.clientId);
  await operator.getByLabel("Client secret", { exact: true }).fill(smart.clientSecret);
  await operator.getByRole("button", { name: "Add health system" }).click();
  await expect(operator.getByText("Health system added to the directory.")).toBeVisible();
  await expect(operator.getByRole("group", { name: providerName })).toContainText(city);

  // A developer asks for production; the operator approves; the developer creates a live key.
  await signUp(page);
  const applicationId = await createApplication(page, appName);
  await page.goto(`/dashboard/${applicationId}/settings`);
  await page.getByLabel("What the application does").fill("Shows patients their lab trends between visits.");
  await page.getByLabel(/Production redirect URLs/).fill("https://labs.example/connected");
  await page.getByLabel("Contact email").fill("ops@labs.example");
  await page.getByRole("button", { name: "Ask for production" }).click();
  await expect(page.getByText(/Waiting for review/)).toBeVisible();
  await operator.goto("/dashboard/operator");
  await operator.getByRole("group", { name: appName }).getByRole("button", { name: "Approve production" }).click();
  await expect(operator.getByText("Production approved: the application's live keys work now.")).toBeVisible();
  await operator.context().close();
  const liveKey = await createLiveKey(page, applicationId, "Production backend");
  const headers = { Authorization: `Bearer ${liveKey}` };

  // The application opens a live Connect session; the patient finds the health system by its city.
  const created = await request.post("/api/v1/connect/sessions", { headers, data: { categories: ["labs", "vitals", "conditions", "medications", "allergies"] } });
  expect(created.status()).toBe(201);
  const session = (await created.json()) as { id: string; connectUrl: string; environment: string };
  expect(session.environment).toBe("live");
  const patient = await newPage(browser);
  await patient.goto(session.connectUrl);
  await patient.getByLabel("Search by name or city").fill(city.toLowerCase());
  await expect(patient.getByRole("checkbox")).toHaveCount(1);
  // No sandbox health system is offered to a live session.
  await expect(patient.getByText("Riverbend Health")).toHaveCount(0);
  await expectAccessible(patient, "live provider picker");
  await patient.getByRole("checkbox", { name: new RegExp(providerName) }).check();
  await patient.getByRole("button", { name: "Continue" }).click();

  // The server does not advertise SMART v2 (permission-v2): its sign-in can only ask for whole types, so the sign-in
  // page says before the patient goes there that it will ask for more, and what the application receives.
  await expect(patient.getByTestId("broader-request")).toHaveText(
    `${providerName} cannot ask for only the kinds of records listed for ${appName}: its sign-in page will ask you for wider access to your record. ${appName} receives only the kinds of records you choose on the next step.`,
  );
  await expectBroaderNoticeEverywhere(patient, [
    `${providerName} cannot ask for only the kinds of records listed for ${appName}`,
    `${providerName} no puede pedir solo los tipos de registros indicados para ${appName}`,
  ]);

  // Standalone launch with PKCE at oidc-provider: its development login (the login is the FHIR Patient id), then consent.
  await patient.getByRole("button", { name: `Sign in at ${providerName}` }).click();
  await expect(patient).toHaveURL(new RegExp(`^${smart.origin}/interaction/`));
  expect(smart.requests.find((line) => line.startsWith("GET /auth?"))).toContain("code_challenge_method=S256");
  await patient.locator('input[name="login"]').fill("999");
  await patient.locator('input[name="password"]').fill("any password");
  await patient.getByRole("button", { name: "Sign-in" }).click();
  await patient.getByRole("button", { name: "Continue" }).click();
  await expect(patient.getByRole("heading", { level: 1, name: "Sign in at each health system" })).toBeVisible();
  await patient.getByRole("link", { name: "Continue to review" }).click();
  // The v1 grant named whole types: the review page says the health system asked for more than the application
  // receives, in English and Spanish, on a phone and a desktop.
  await expect(patient.getByTestId("broader-request")).toContainText(`${appName} receives only the kinds of records you keep checked below.`);
  await expectBroaderNoticeEverywhere(patient, [
    `${providerName} cannot ask for only these kinds of records, so its sign-in page asked you for wider access to your record.`,
    `${providerName} no puede pedir solo estos tipos de registros, así que su página de inicio de sesión le pidió un acceso más amplio a su expediente.`,
  ]);
  await patient.getByRole("button", { name: /Share with/ }).click();
  await expect(patient.getByRole("heading", { level: 1 })).toContainText("You are sharing with");
  await expect(patient.locator('[data-status="synced"]')).toBeVisible({ timeout: 60_000 });

  // The application reads the imported records with its live key.
  const read = (await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers })).json()) as { status: string; subject: string; sources: { providerName: string; status: string; recordCount: number }[] };
  expect(read.status).toBe("completed");
  expect(read.sources).toEqual([expect.objectContaining({ providerName, status: "synced", recordCount: expect.any(Number) })]);
  expect(read.sources[0]!.recordCount).toBeGreaterThan(3);
  const records = await request.get(`/api/v1/users/${read.subject}/records`, { headers });
  expect(records.status()).toBe(200);
  const text = await records.text();
  expect(text).toContain("Type 2 diabetes mellitus");
  const snapshot = JSON.parse(text) as { sections: { conditions: { records: { sources: { resourceId: string }[] }[] } } };
  expect(snapshot.sections.conditions.records.flatMap((record) => record.sources.map((source) => source.resourceId))).toContain("pdex-Condition-2");
  // Only the shared categories are read (demographics is not shared: no Patient read).
  expect(smart.requests).toEqual(expect.arrayContaining([expect.stringMatching(/^GET \/fhir\/Condition\?patient=999&/)]));
  expect(smart.requests).not.toContain("GET /fhir/Patient/999");
  await patient.context().close();
});
