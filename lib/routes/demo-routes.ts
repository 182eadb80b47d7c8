import { route, type DeclaredHandler } from "@/lib/api";
import {
  authorizeRecordRead,
  buildHealthRecord,
  buildLegacyRecord,
  createDemoConnectSession,
  DATA_NOTICE,
  demoCapabilityStatement,
  demoIndex,
  demoList,
  getDemoFhirCapabilities,
  getDemoHealth,
  getDemoHealthRecord,
  getDemoIndex,
  getDemoLegacyRecord,
  getDemoPatient,
  getDemoScenario,
  listDemoPatients,
  listDemoProviders,
  listDemoScenarios,
  listProviders,
  patientOr404,
  patientScenarios,
  presentPatient,
  presentScenario,
  readDemoFhir,
  readFhirResource,
  rejectUnsupportedQuery,
  scenarioOr404,
  searchDemoFhir,
  searchFhir,
  simulateConnectSession,
  subjectOr404,
} from "@/lib/demo";
import { demoOpenApiDocument, getDemoOpenApi } from "@/lib/openapi";
import { SCENARIOS } from "@/lib/sandbox";

/** The handlers of every /demo/v1 operation but MCP (lib/routes/api-routes.ts adds it: it calls the others). */
export const DEMO_HANDLERS: readonly DeclaredHandler[] = [
  route(getDemoIndex, () => ({ body: demoIndex() })),
  route(getDemoHealth, () => ({ body: { status: "ok", notice: DATA_NOTICE } })),
  route(getDemoOpenApi, () => ({ body: demoOpenApiDocument() })),
  route(listDemoProviders, () => ({ body: listProviders() })),
  route(listDemoScenarios, () => ({ body: demoList(SCENARIOS.map(presentScenario)) })),
  route(getDemoScenario, ({ params }) => ({ body: { ...presentScenario(scenarioOr404(params.scenarioId)), notice: DATA_NOTICE } })),
  route(listDemoPatients, () => ({ body: demoList(patientScenarios().map(presentPatient)) })),
  route(getDemoPatient, ({ params }) => ({ body: { ...presentPatient(patientOr404(params.patientId)), notice: DATA_NOTICE } })),
  // Legacy operation: every query parameter except categories (cursor, limit, ...) is ignored, as it always was.
  route(getDemoLegacyRecord, ({ params, query, setHeader }) => {
    const scenario = patientOr404(params.patientId);
    const categories = authorizeRecordRead(scenario, query.categories, setHeader);
    return { body: buildLegacyRecord(scenario, categories) };
  }),
  route(getDemoHealthRecord, ({ params, query, url, setHeader }) => {
    const scenario = subjectOr404(params.subject);
    const categories = authorizeRecordRead(scenario, query.categories, setHeader);
    rejectUnsupportedQuery(url);
    return { body: buildHealthRecord(scenario, categories) };
  }),
  route(createDemoConnectSession, ({ body }) => ({ status: 201, body: simulateConnectSession(body) })),
  route(getDemoFhirCapabilities, ({ url }) => ({ body: demoCapabilityStatement(url.origin) })),
  route(searchDemoFhir, ({ params, query, url }) => ({ body: searchFhir(params.resourceType, query.patient ?? null, url.origin) })),
  route(readDemoFhir, ({ params }) => ({ body: readFhirResource(params.resourceType, params.resourceId) })),
];
