import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/auth";
import { availableProviders } from "@/lib/connect";
import { db } from "@/lib/db";
import { listAuditEntries } from "@/lib/audit";
import { guardedGet } from "@/lib/outbound";
import { createTestDeveloper } from "@/test/factories";
import { createLiveProvider, listLiveProviders, previewProvider, setLiveProviderDisabled, testLiveProvider, updateLiveProvider } from "@/lib/provider-directory";

// A SMART on FHIR server of its own for this file: the SMART configuration, a CapabilityStatement, and the bad
// answers the outbound rules must stop (redirects to refused addresses, oversized and endless answers).
let base = "";
let available = true;
const server = http.createServer((request, response) => {
  const path = request.url ?? "/";
  if (!available) return void response.writeHead(503).end();
  const json = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  if (path === "/fhir/.well-known/smart-configuration") {
    return json({
      authorization_endpoint: `${base}/auth/authorize`,
      token_endpoint: `${base}/auth/token`,
      code_challenge_methods_supported: ["S256"],
      capabilities: ["launch-standalone", "client-confidential-symmetric"],
      scopes_supported: ["launch/patient", "patient/*.read"],
    });
  }
  if (path === "/fhir/metadata") {
    return json({ resourceType: "CapabilityStatement", fhirVersion: "4.0.1", software: { name: "Test EHR", version: "2.1" }, rest: [{ mode: "server", resource: [{ type: "Patient" }, { type: "Observation" }] }] });
  }
  if (path === "/nopkce/.well-known/smart-configuration") return json({ authorization_endpoint: `${base}/a`, token_endpoint: `${base}/t` });
  if (path === "/metadata-redirect/.well-known/smart-configuration") return void response.writeHead(302, { location: "https://169.254.169.254/latest/meta-data/" }).end();
  if (path === "/private-redirect/.well-known/smart-configuration") return void response.writeHead(302, { location: "http://10.1.2.3/fhir/.well-known/smart-configuration" }).end();
  if (path === "/local-redirect/.well-known/smart-configuration") return void response.writeHead(302, { location: `${base}/fhir/.well-known/smart-configuration` }).end();
  if (path === "/huge") return void response.writeHead(200).end("x".repeat(50_000));
  if (path === "/slow") return; // never answers
  response.writeHead(404).end();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  available = true;
});

async function operatorAllowingLocalServer() {
  const operator = await createTestDeveloper();
  vi.stubEnv("CHARTKEY_OPERATOR_EMAILS", operator.email);
  vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
  return operator;
}

describe("outbound rules for health systems", () => {
  it("refuses http, private, loopback, link-local and metadata addresses unless the deployment names the host", async () => {
    vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "");
    expect(await guardedGet(`${base}/fhir/metadata`)).toMatchObject({ ok: false, reason: expect.stringContaining("must use https") });
    for (const url of ["https://127.0.0.1/fhir", "https://10.0.0.8/fhir", "https://169.254.169.254/latest", "https://[::1]/fhir", "https://localhost./fhir", "https://[::ffff:127.0.0.1]/x"]) {
      expect(await guardedGet(url)).toMatchObject({ ok: false, reason: expect.stringContaining("the host is not a public address") });
    }
    vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1, 169.254.169.254");
    expect(await guardedGet(`${base}/fhir/metadata`)).toMatchObject({ ok: true, status: 200 });
    // Naming a link-local (metadata) host does not open it.
    expect(await guardedGet("http://169.254.169.254/latest/meta-data/")).toMatchObject({ ok: false, reason: expect.stringContaining("the host is not a public address") });
    expect(await guardedGet("http://user:pw@127.0.0.1/x")).toMatchObject({ ok: false, reason: expect.stringContaining("credentials") });
  });

  it("checks every redirect again and caps the answer's time and size", async () => {
    vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "127.0.0.1");
    expect(await guardedGet(`${base}/metadata-redirect/.well-known/smart-configuration`)).toMatchObject({ ok: false, reason: expect.stringMatching(/^refused redirect https:\/\/169\.254\.169\.254.*not a public address/) });
    expect(await guardedGet(`${base}/private-redirect/.well-known/smart-configuration`)).toMatchObject({ ok: false, reason: expect.stringMatching(/^refused redirect http:\/\/10\.1\.2\.3.*must use https/) });
    expect(await guardedGet(`${base}/local-redirect/.well-known/smart-configuration`)).toMatchObject({ ok: true, status: 200, url: `${base}/fhir/.well-known/smart-configuration` });
    expect(await guardedGet(`${base}/huge`, { maxBytes: 10_000 })).toMatchObject({ ok: false, reason: expect.stringContaining("larger than 10000 bytes") });
    const started = Date.now();
    expect(await guardedGet(`${base}/slow`, { timeoutMs: 300 })).toMatchObject({ ok: false, reason: expect.stringContaining("no complete answer within 300 ms") });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("the live provider directory", () => {
  it("is for operators only: anyone else is answered not found", async () => {
    await operatorAllowingLocalServer();
    const outsider = await createTestDeveloper();
    const notFound = { code: "not_found" };
    await expect(listLiveProviders(outsider.id)).rejects.toMatchObject(notFound);
    await expect(previewProvider(outsider.id, { fhirBaseUrl: `${base}/fhir` })).rejects.toMatchObject(notFound);
    await expect(createLiveProvider(outsider.id, { name: "Sneaky", fhirBaseUrl: `${base}/fhir`, clientId: "c" })).rejects.toMatchObject(notFound);
    await expect(updateLiveProvider(outsider.id, "prov_x", { name: "Sneaky", clientId: "c" })).rejects.toMatchObject(notFound);
    await expect(setLiveProviderDisabled(outsider.id, "prov_x", true)).rejects.toMatchObject(notFound);
    await expect(testLiveProvider(outsider.id, "prov_x")).rejects.toMatchObject(notFound);
    expect(await db().provider.count({ where: { environment: "live" } })).toBe(0);
  });

  it("discovers, adds with the secret encrypted, edits, disables and tests a health system; refusals say why", async () => {
    const operator = await operatorAllowingLocalServer();
    const preview = await previewProvider(operator.id, { fhirBaseUrl: `${base}/fhir/` });
    expect(preview).toEqual({
      ok: true,
      fhirBaseUrl: `${base}/fhir`,
      discovery: {
        authorizeUrl: `${base}/auth/authorize`,
        tokenUrl: `${base}/auth/token`,
        capabilities: ["launch-standalone", "client-confidential-symmetric"],
        scopesSupported: ["launch/patient", "patient/*.read"],
        fhirVersion: "4.0.1",
        software: "Test EHR 2.1",
        resourceTypes: ["Observation", "Patient"],
      },
    });
    expect(await previewProvider(operator.id, { fhirBaseUrl: `${base}/nopkce` })).toMatchObject({ ok: false, reason: "the SMART configuration does not offer PKCE with S256" });
    expect(await previewProvider(operator.id, { fhirBaseUrl: `${base}/missing` })).toMatchObject({ ok: false, reason: expect.stringContaining("answered HTTP 404") });
    await expect(createLiveProvider(operator.id, { name: "Metadata", fhirBaseUrl: `${base}/metadata-redirect`, clientId: "c" })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("not a public address"),
    });

    const created = await createLiveProvider(operator.id, { name: "Riverside Health", fhirBaseUrl: `${base}/fhir`, clientId: "chartkey-client", clientSecret: "s3cret-value" });
    expect(created).toMatchObject({ name: "Riverside Health", authorizeUrl: `${base}/auth/authorize`, hasSecret: true, disabled: false, checkError: null });
    expect(JSON.stringify(created)).not.toContain("s3cret-value");
    const row = await db().provider.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ environment: "live" });
    expect(row.clientSecretEncrypted).not.toContain("s3cret-value");
    expect(decryptSecret(row.clientSecretEncrypted)).toBe("s3cret-value");
    await expect(createLiveProvider(operator.id, { name: "Again", fhirBaseUrl: `${base}/fhir`, clientId: "c" })).rejects.toMatchObject({ message: expect.stringContaining("already in the directory") });

    const edited = await updateLiveProvider(operator.id, created.id, { name: "Riverside Health System", clientId: "new-client" });
    expect(edited).toMatchObject({ name: "Riverside Health System", clientId: "new-client", hasSecret: true });
    expect(decryptSecret((await db().provider.findUniqueOrThrow({ where: { id: created.id } })).clientSecretEncrypted)).toBe("s3cret-value");
    await updateLiveProvider(operator.id, created.id, { name: "Riverside Health System", clientId: "new-client", clientSecret: "rotated" });
    expect(decryptSecret((await db().provider.findUniqueOrThrow({ where: { id: created.id } })).clientSecretEncrypted)).toBe("rotated");

    // Live Connect offers it while enabled, not while disabled.
    expect((await availableProviders("live")).map((provider) => provider.id)).toEqual([created.id]);
    expect((await setLiveProviderDisabled(operator.id, created.id, true)).disabled).toBe(true);
    expect(await availableProviders("live")).toEqual([]);
    expect((await setLiveProviderDisabled(operator.id, created.id, false)).disabled).toBe(false);
    expect((await availableProviders("live")).map((provider) => provider.name)).toEqual(["Riverside Health System"]);

    available = false;
    expect(await testLiveProvider(operator.id, created.id)).toMatchObject({ checkError: expect.stringContaining("answered HTTP 503"), checkedAt: expect.any(Date) });
    available = true;
    expect(await testLiveProvider(operator.id, created.id)).toMatchObject({ checkError: null });
    // Without the deployment's permission, the same server is refused, and the operator reads why.
    vi.stubEnv("CHARTKEY_PROVIDER_PRIVATE_HOSTS", "");
    expect(await testLiveProvider(operator.id, created.id)).toMatchObject({ checkError: expect.stringContaining("must use https") });
    await expect(updateLiveProvider(operator.id, "prov_missing", { name: "Nope", clientId: "c" })).rejects.toMatchObject({ code: "not_found" });

    expect((await listLiveProviders(operator.id)).map((provider) => provider.id)).toEqual([created.id]);
    const audit = (await listAuditEntries({ deployment: true }, {})).entries.filter((entry) => entry.targetId === created.id);
    expect(audit.map((entry) => entry.action)).toEqual(["provider.test", "provider.test", "provider.test", "provider.enable", "provider.disable", "provider.update", "provider.update", "provider.create"]);
    expect(JSON.stringify(audit)).not.toMatch(/s3cret-value|rotated/);
  });
});
