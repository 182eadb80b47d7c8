import type { IncomingMessage, ServerResponse } from "node:http";
import smart from "fhirclient";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ehrEndpoints, SANDBOX_CLIENT_ID, SANDBOX_PUBLIC_CLIENT_ID, sandboxClientSecret } from "@/lib/ehr";
import { sourceResources } from "@/lib/sandbox";
import { FHIR_PATIENT_ID, PATIENT_KEY, PROVIDER } from "@/test/ehr";
import { listenOnFreePort } from "@/test/raw-http";
import { serveRouteFiles } from "@/test/route-server";

// SMART Health IT's client library (fhirclient), as a third-party app would use it on its server, completes a
// standalone launch against a synthetic health system over real HTTP and reads the patient: proof that the
// synthetic health systems speak SMART App Launch as third-party clients expect, not only as our client does.

let ehr: Awaited<ReturnType<typeof serveRouteFiles>>;
let app: Awaited<ReturnType<typeof listenOnFreePort>>;
const previousPublicUrl = process.env.CHARTKEY_PUBLIC_URL;
/** fhirclient's state, kept by the app between the launch and the callback (a server session would hold it). */
const store = new Map<string, unknown>();
const storage = {
  get: async (key: string) => store.get(key),
  set: async (key: string, value: unknown) => (store.set(key, value), value),
  unset: async (key: string) => store.delete(key),
};
/** How the app authorizes at the next launch (confidential or public client). */
let launchOptions: Record<string, unknown> = {};

async function appRoutes(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (url.pathname === "/launch") return smart(req, res, storage).authorize(launchOptions);
  if (url.pathname === "/callback") {
    const client = await smart(req, res, storage).ready();
    const patient = await client.patient.read();
    // Every page of a search, following the server's next links as fhirclient does.
    const observations = (await client.request(`Observation?patient=${client.patient.id}&_count=5`, { pageLimit: 0, flat: true })) as { resourceType: string; id: string }[];
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        patient,
        patientId: client.patient.id,
        observationIds: observations.map((resource) => `${resource.resourceType}/${resource.id}`),
        scope: client.state.tokenResponse?.scope,
        refreshToken: Boolean(client.state.tokenResponse?.refresh_token),
      }),
    );
    return;
  }
  res.writeHead(404).end();
}

beforeAll(async () => {
  ehr = await serveRouteFiles("ehr");
  process.env.CHARTKEY_PUBLIC_URL = ehr.origin;
  app = await listenOnFreePort((req, res) => {
    appRoutes(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(error instanceof Error ? error.message : String(error));
    });
  });
});

afterAll(async () => {
  process.env.CHARTKEY_PUBLIC_URL = previousPublicUrl;
  await app?.close();
  await ehr?.close();
});

/** The patient at the health system's sign-in page: chooses their record and allows, as the page's form posts it. */
async function allowAtAuthorizePage(authorizeUrl: string): Promise<string> {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) form.set(match[1]!, match[2]!.replaceAll("&amp;", "&").replaceAll("&quot;", '"'));
  form.set("patient", PATIENT_KEY);
  form.set("decision", "allow");
  const decided = await fetch(authorizeUrl.split("?")[0]!, { method: "POST", body: form, redirect: "manual" });
  expect(decided.status).toBe(303);
  return decided.headers.get("location")!;
}

async function launchAndRead(options: Record<string, unknown>) {
  launchOptions = { iss: ehrEndpoints(PROVIDER).fhirBase, redirectUri: `http://127.0.0.1:${app.port}/callback`, scope: "launch/patient patient/*.read offline_access", pkceMode: "required", ...options };
  const launched = await fetch(`http://127.0.0.1:${app.port}/launch`, { redirect: "manual" });
  expect(launched.status).toBe(302);
  const authorizeUrl = launched.headers.get("location")!;
  const asked = new URL(authorizeUrl);
  expect(`${asked.origin}${asked.pathname}`).toBe(ehrEndpoints(PROVIDER).authorize);
  expect(asked.searchParams.get("code_challenge_method")).toBe("S256");
  expect(asked.searchParams.get("aud")).toBe(ehrEndpoints(PROVIDER).fhirBase);

  const callback = await allowAtAuthorizePage(authorizeUrl);
  expect(callback.startsWith(`http://127.0.0.1:${app.port}/callback?`)).toBe(true);
  const answer = await fetch(callback);
  const text = await answer.text();
  expect(answer.status, text).toBe(200);
  return JSON.parse(text) as { patient: { resourceType: string; id: string }; patientId: string; observationIds: string[]; scope: string; refreshToken: boolean };
}

describe("fhirclient (SMART Health IT) against a synthetic health system", () => {
  it("completes a standalone launch as a confidential client with PKCE S256 and reads the patient", async () => {
    const read = await launchAndRead({ clientId: SANDBOX_CLIENT_ID, clientSecret: sandboxClientSecret(PROVIDER) });
    expect(read.patientId).toBe(FHIR_PATIENT_ID);
    expect(read.patient).toMatchObject({ resourceType: "Patient", id: FHIR_PATIENT_ID });
    expect(read.scope.split(" ")).toEqual(expect.arrayContaining(["launch/patient", "patient/*.read"]));
    expect(read.refreshToken).toBe(true);
    // The same Observations the platform's own client imports for this patient, across several pages of five.
    const expected = sourceResources("baseline-adult", "primary", 0).filter((resource) => resource.resourceType === "Observation");
    expect(expected.length).toBeGreaterThan(5);
    expect(read.observationIds.sort()).toEqual(expected.map((resource) => `Observation/${resource.id}`).sort());
  });

  it("completes it as a public client (PKCE only) too", async () => {
    const read = await launchAndRead({ clientId: SANDBOX_PUBLIC_CLIENT_ID });
    expect(read.patient).toMatchObject({ resourceType: "Patient", id: FHIR_PATIENT_ID });
  });
});
