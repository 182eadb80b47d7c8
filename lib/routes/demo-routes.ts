import { route, type DeclaredHandler } from "@/lib/api";
import {
  authorizeRecordRead,
  buildHealthRecord,
  buildLegacyRecord,
  createDemoConnectSessionOperation,
  DATA_NOTICE,
  getDemoFhirCapabilities,
  getDemoIndex,
  demoList,
  getDemoFhirCapabilitiesOperation,
  getDemoHealthOperation,
  getDemoHealthRecordOperation,
  getDemoIndexOperation,
  getDemoLegacyRecordOperation,
  getDemoPatientOperation,
  getDemoScenarioOperation,
  listDemoPatientsOperation,
  listDemoProvidersOperation,
  listDemoScenariosOperation,
  listDemoProviders,
  patientOr404,
  patientScenarios,
  presentPatient,
  presentScenario,
  readDemoFhirOperation,
  readDemoFhir,
  rejectUnsupportedQuery,
  scenarioOr404,
  searchDemoFhirOperation,
  searchDemoFhir,
  createDemoConnectSession,
  subjectOr404,
} from "@/lib/demo";
import { getDemoOpenApi, getDemoOpenApiOperation } from "@/lib/openapi";
import { SCENARIOS } from "@/lib/sandbox";

/** The handlers of every /demo/v1 operation but MCP (lib/routes/api-routes.ts adds it: it calls the others). */
export const DEMO_HANDLERS: readonly DeclaredHandler[] = [
  route(getDemoIndexOperation, () => ({ body: getDemoIndex() })),
  route(getDemoHealthOperation, () => ({ body: { status: "ok", notice: DATA_NOTICE } })),
  route(getDemoOpenApiOperation, () => ({ body: getDemoOpenApi() })),
  route(listDemoProvidersOperation, () => ({ body: listDemoProviders() })),
  route(listDemoScenariosOperation, () => ({ body: demoList(SCENARIOS.map(presentScenario)) })),
  route(getDemoScenarioOperation, ({ params }) => ({ body: { ...presentScenario(scenarioOr404(params.scenarioId)), notice: DATA_NOTICE } })),
  route(listDemoPatientsOperation, () => ({ body: demoList(patientScenarios().map(presentPatient)) })),
  route(getDemoPatientOperation, ({ params }) => ({ body: { ...presentPatient(patientOr404(params.patientId)), notice: DATA_NOTICE } })),
  // Legacy operation: every query parameter except categories (cursor, limit, ...) is ignored, as it always was.
  route(getDemoLegacyRecordOperation, ({ params, query, setHeader }) => {
    const scenario = patientOr404(params.patientId);
    const categories = authorizeRecordRead(scenario, query.categories, setHeader);
    return { body: buildLegacyRecord(scenario, categories) };
  }),
  route(getDemoHealthRecordOperation, ({ params, query, url, setHeader }) => {
    const scenario = subjectOr404(params.subject);
    const categories = authorizeRecordRead(scenario, query.categories, setHeader);
    rejectUnsupportedQuery(url);
    return { body: buildHealthRecord(scenario, categories) };
  }),
  route(createDemoConnectSessionOperation, ({ body }) => ({ status: 201, body: createDemoConnectSession(body) })),
  route(getDemoFhirCapabilitiesOperation, ({ url }) => ({ body: getDemoFhirCapabilities(url.origin) })),
  route(searchDemoFhirOperation, ({ params, query, url }) => ({ body: searchDemoFhir(params.resourceType, query.patient ?? null, url.origin) })),
  route(readDemoFhirOperation, ({ params }) => ({ body: readDemoFhir(params.resourceType, params.resourceId) })),
];
