import { route, type DeclaredHandler } from "@/lib/api";
import { FHIR_HANDLERS } from "./fhir-routes";
import { createAgentCredential, issueCredential, revokeAgentCredential, revokeKeyCredential } from "@/lib/agents";
import { getApp, presentApplication } from "@/lib/applications";
import { publicOrigin } from "@/lib/config";
import {
  advanceConformanceRun,
  advanceRun,
  cancelConformanceRun,
  cancelRun,
  createRun,
  forceRunRateLimit,
  getConformanceRun,
  listConformanceRuns,
  listRuns,
  readRun,
  startConformanceRun,
} from "@/lib/conformance";
import { cancelConnectSession, cancelSession, createConnectSession, createSession, getConnectSession, readSession, receiptUrl } from "@/lib/connect";
import { getConsentReceipt, readReceipt } from "@/lib/consent";
import { jsonText } from "@/lib/http";
import { getPlatformOpenApi, platformOpenApiDocument } from "@/lib/openapi";
import { getHealth, platformHealth } from "@/lib/platform";
import { applySandboxEvent, simulateConnectSession, simulateSession, triggerSandboxEvent } from "@/lib/simulation";
import {
  createTefcaSession,
  createTefcaSessionOperation,
  discoverTefcaDocuments,
  discoverTefcaSession,
  exportTefcaRecords,
  exportTefcaSession,
  getTefcaConfig,
  getTefcaSession,
  readTefcaSession,
  retrieveTefcaDocuments,
  retrieveTefcaSession,
  revokeTefcaSession,
  revokeTefcaSessionOperation,
  tefcaConfig,
  withEtag,
} from "@/lib/tefca";
import {
  getHealthRecord,
  listCategoryRecords,
  listRecordChanges,
  listUsers,
  readCategoryRecords,
  readRecordChanges,
  readSnapshot,
  readUsers,
} from "@/lib/users";

/** The handlers of every /api/v1 operation but MCP (lib/routes/api-routes.ts adds it: it calls the others). */
export const PLATFORM_HANDLERS: readonly DeclaredHandler[] = [
  route(getHealth, () => platformHealth()),
  route(getApp, ({ auth }) => ({ body: presentApplication(auth) })),
  route(getPlatformOpenApi, () => ({ body: platformOpenApiDocument() })),
  route(createAgentCredential, async ({ auth, body }) => {
    const { credential, token } = await issueCredential(auth, body);
    // The token is shown once: an idempotent replay answers the credential without it.
    return { status: 201, body: { ...credential, token }, replayBody: credential };
  }),
  route(revokeAgentCredential, async ({ auth, params }) => ({ body: await revokeKeyCredential(auth, params.credentialId) })),
  route(createConnectSession, async ({ auth, body, url }) => ({ status: 201, body: await createSession(auth, body, publicOrigin(url.origin)) })),
  route(getConnectSession, async ({ auth, params, url }) => ({ body: await readSession(auth, params.sessionId, publicOrigin(url.origin)) })),
  route(cancelConnectSession, async ({ auth, params, url }) => ({ body: await cancelSession(auth, params.sessionId, publicOrigin(url.origin)) })),
  route(listUsers, async ({ auth, query }) => ({ body: await readUsers(auth, query) })),
  route(getHealthRecord, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: jsonText(await readSnapshot(auth, params.subject, query.categories)) };
  }),
  route(listCategoryRecords, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: jsonText(await readCategoryRecords(auth, params.subject, params.category, query)) };
  }),
  route(listRecordChanges, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: await readRecordChanges(auth, params.subject, params.category, query) };
  }),
  route(getConsentReceipt, async ({ auth, params, url }) => ({
    body: await readReceipt(auth, params.receiptId, (receiptId) => receiptUrl(publicOrigin(url.origin), receiptId)),
  })),
  route(simulateConnectSession, async ({ auth, params, body, url }) => ({
    body: await simulateSession(auth, params.sessionId, body.scenario, publicOrigin(url.origin)),
  })),
  route(triggerSandboxEvent, async ({ auth, params, body }) => ({ body: await applySandboxEvent(auth, params.subject, body) })),
  route(getTefcaConfig, ({ auth }) => ({ body: tefcaConfig(auth) })),
  route(createTefcaSessionOperation, async ({ auth, body }) => {
    const session = await createTefcaSession(auth, body);
    return withEtag(session, session.version, 201);
  }),
  route(getTefcaSession, async ({ auth, params }) => {
    const session = await readTefcaSession(auth, params.sessionId);
    return withEtag(session, session.version);
  }),
  route(discoverTefcaSession, async ({ auth, params, body, request }) => {
    const session = await discoverTefcaDocuments(auth, params.sessionId, body, request.headers.get("if-match"));
    return withEtag(session, session.version);
  }),
  route(retrieveTefcaSession, async ({ auth, params, body, request }) => {
    const retrieval = await retrieveTefcaDocuments(auth, params.sessionId, body, request.headers.get("if-match"));
    return withEtag(retrieval, retrieval.session.version);
  }),
  route(exportTefcaSession, async ({ auth, params, query }) => {
    const exported = await exportTefcaRecords(auth, params.sessionId, query.format);
    return withEtag(exported.body, exported.session.version);
  }),
  route(revokeTefcaSessionOperation, async ({ auth, params, request }) => {
    const session = await revokeTefcaSession(auth, params.sessionId, request.headers.get("if-match"));
    return withEtag(session, session.version);
  }),
  route(listConformanceRuns, async ({ auth, query, url }) => ({ body: await listRuns(auth, query, publicOrigin(url.origin)) })),
  route(startConformanceRun, async ({ auth, body, url }) => ({ status: 201, body: await createRun(auth, body, publicOrigin(url.origin)) })),
  route(getConformanceRun, async ({ auth, params, url }) => ({ body: await readRun(auth, params.runId, publicOrigin(url.origin)) })),
  route(cancelConformanceRun, async ({ auth, params, url }) => ({ body: await cancelRun(auth, params.runId, publicOrigin(url.origin)) })),
  route(advanceConformanceRun, async ({ auth, params, url }) => ({ body: await advanceRun(auth, params.runId, publicOrigin(url.origin)) })),
  ...FHIR_HANDLERS,
];
