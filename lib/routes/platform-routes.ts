import { route, type DeclaredHandler } from "@/lib/api";
import { FHIR_HANDLERS } from "./fhir-routes";
import { FHIR_EXPORT_HANDLERS } from "./fhir-export-routes";
import { createAgentCredentialOperation, createAgentCredential, revokeAgentCredentialOperation, revokeAgentCredential } from "@/lib/agents";
import { getApp, getAppOperation } from "@/lib/applications";
import { publicOrigin } from "@/lib/config";
import {
  advanceConformanceRunOperation,
  advanceConformanceRun,
  cancelConformanceRunOperation,
  cancelConformanceRun,
  startConformanceRun,
  forceRunRateLimit,
  getConformanceRunOperation,
  listConformanceRunsOperation,
  listConformanceRuns,
  getConformanceRun,
  startConformanceRunOperation,
} from "@/lib/conformance";
import { cancelConnectSessionOperation, cancelConnectSession, createConnectSessionOperation, createConnectSession, getConnectSessionOperation, getConnectSession, receiptUrl } from "@/lib/connect";
import { getConsentReceiptOperation, getConsentReceipt } from "@/lib/consent";
import { jsonText } from "@/lib/http";
import { getPlatformOpenApiOperation, getPlatformOpenApi } from "@/lib/openapi";
import { getHealthOperation, getHealth } from "@/lib/platform";
import { triggerSandboxEvent, simulateConnectSessionOperation, simulateConnectSession, triggerSandboxEventOperation } from "@/lib/simulation";
import {
  createTefcaSession,
  createTefcaSessionOperation,
  discoverTefcaDocuments,
  discoverTefcaDocumentsOperation,
  exportTefcaRecords,
  exportTefcaRecordsOperation,
  getTefcaConfigOperation,
  getTefcaSessionOperation,
  getTefcaSession,
  retrieveTefcaDocuments,
  retrieveTefcaDocumentsOperation,
  revokeTefcaSession,
  revokeTefcaSessionOperation,
  getTefcaConfig,
  withEtag,
} from "@/lib/tefca";
import {
  getHealthRecordOperation,
  listCategoryRecordsOperation,
  listRecordChangesOperation,
  listUsersOperation,
  listCategoryRecords,
  listRecordChanges,
  getHealthRecord,
  listUsers,
} from "@/lib/users";

/** The handlers of every /api/v1 operation but MCP (lib/routes/api-routes.ts adds it: it calls the others). */
export const PLATFORM_HANDLERS: readonly DeclaredHandler[] = [
  route(getHealthOperation, () => getHealth()),
  route(getAppOperation, ({ auth }) => ({ body: getApp(auth) })),
  route(getPlatformOpenApiOperation, () => ({ body: getPlatformOpenApi() })),
  route(createAgentCredentialOperation, async ({ auth, body }) => {
    const { credential, token } = await createAgentCredential(auth, body);
    // The token is shown once: an idempotent replay answers the credential without it.
    return { status: 201, body: { ...credential, token }, replayBody: credential };
  }),
  route(revokeAgentCredentialOperation, async ({ auth, params }) => ({ body: await revokeAgentCredential(auth, params.credentialId) })),
  route(createConnectSessionOperation, async ({ auth, body, url }) => ({ status: 201, body: await createConnectSession(auth, body, publicOrigin(url.origin)) })),
  route(getConnectSessionOperation, async ({ auth, params, url }) => ({ body: await getConnectSession(auth, params.sessionId, publicOrigin(url.origin)) })),
  route(cancelConnectSessionOperation, async ({ auth, params, url }) => ({ body: await cancelConnectSession(auth, params.sessionId, publicOrigin(url.origin)) })),
  route(listUsersOperation, async ({ auth, query }) => ({ body: await listUsers(auth, query) })),
  route(getHealthRecordOperation, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: jsonText(await getHealthRecord(auth, params.subject, query.categories)) };
  }),
  route(listCategoryRecordsOperation, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: jsonText(await listCategoryRecords(auth, params.subject, params.category, query)) };
  }),
  route(listRecordChangesOperation, async ({ auth, params, query, requestId }) => {
    await forceRunRateLimit(auth, requestId);
    return { body: await listRecordChanges(auth, params.subject, params.category, query) };
  }),
  route(getConsentReceiptOperation, async ({ auth, params, url }) => ({
    body: await getConsentReceipt(auth, params.receiptId, (receiptId) => receiptUrl(publicOrigin(url.origin), receiptId)),
  })),
  route(simulateConnectSessionOperation, async ({ auth, params, body, url }) => ({
    body: await simulateConnectSession(auth, params.sessionId, body.scenario, publicOrigin(url.origin)),
  })),
  route(triggerSandboxEventOperation, async ({ auth, params, body }) => ({ body: await triggerSandboxEvent(auth, params.subject, body) })),
  route(getTefcaConfigOperation, ({ auth }) => ({ body: getTefcaConfig(auth) })),
  route(createTefcaSessionOperation, async ({ auth, body }) => {
    const session = await createTefcaSession(auth, body);
    return withEtag(session, session.version, 201);
  }),
  route(getTefcaSessionOperation, async ({ auth, params }) => {
    const session = await getTefcaSession(auth, params.sessionId);
    return withEtag(session, session.version);
  }),
  route(discoverTefcaDocumentsOperation, async ({ auth, params, body, request }) => {
    const session = await discoverTefcaDocuments(auth, params.sessionId, body, request.headers.get("if-match"));
    return withEtag(session, session.version);
  }),
  route(retrieveTefcaDocumentsOperation, async ({ auth, params, body, request }) => {
    const retrieval = await retrieveTefcaDocuments(auth, params.sessionId, body, request.headers.get("if-match"));
    return withEtag(retrieval, retrieval.session.version);
  }),
  route(exportTefcaRecordsOperation, async ({ auth, params, query }) => {
    const exported = await exportTefcaRecords(auth, params.sessionId, query.format);
    return withEtag(exported.body, exported.session.version);
  }),
  route(revokeTefcaSessionOperation, async ({ auth, params, request }) => {
    const session = await revokeTefcaSession(auth, params.sessionId, request.headers.get("if-match"));
    return withEtag(session, session.version);
  }),
  route(listConformanceRunsOperation, async ({ auth, query, url }) => ({ body: await listConformanceRuns(auth, query, publicOrigin(url.origin)) })),
  route(startConformanceRunOperation, async ({ auth, body, url }) => ({ status: 201, body: await startConformanceRun(auth, body, publicOrigin(url.origin)) })),
  route(getConformanceRunOperation, async ({ auth, params, url }) => ({ body: await getConformanceRun(auth, params.runId, publicOrigin(url.origin)) })),
  route(cancelConformanceRunOperation, async ({ auth, params, url }) => ({ body: await cancelConformanceRun(auth, params.runId, publicOrigin(url.origin)) })),
  route(advanceConformanceRunOperation, async ({ auth, params, url }) => ({ body: await advanceConformanceRun(auth, params.runId, publicOrigin(url.origin)) })),
  ...FHIR_HANDLERS,
  ...FHIR_EXPORT_HANDLERS,
];
