import { FHIR_PROFILE, route, routeTable, type RouteTable } from "@/lib/api";
import {
  authorizeFhirRequest,
  decideEhrAuthorization,
  decideEhrAuthorizationOperation,
  getEhrCapabilities,
  getEhrCapabilitiesOperation,
  getEhrRootSmartConfigurationOperation,
  getEhrSmartConfigurationOperation,
  revokeEhrToken,
  requestEhrToken,
  readEhr,
  readEhrFhirOperation,
  requestEhrTokenOperation,
  revokeEhrTokenOperation,
  searchEhr,
  searchEhrFhirOperation,
  showEhrAuthorization,
  showEhrAuthorizationOperation,
  smartConfiguration,
} from "@/lib/ehr";

/**
 * `/ehr`: the synthetic health systems, each a SMART on FHIR server (authorization, token, revocation and a FHIR
 * API). A path no operation serves answers the FHIR family's OperationOutcome 404.
 */
export const EHR_ROUTES: RouteTable = routeTable("/ehr", FHIR_PROFILE, [
  route(getEhrRootSmartConfigurationOperation, ({ params }) => ({ body: smartConfiguration(params.providerId) })),
  route(getEhrSmartConfigurationOperation, ({ params }) => ({ body: smartConfiguration(params.providerId) })),
  route(showEhrAuthorizationOperation, ({ params, request }) => showEhrAuthorization(params.providerId, request)),
  route(decideEhrAuthorizationOperation, ({ params, request }) => decideEhrAuthorization(params.providerId, request)),
  route(requestEhrTokenOperation, ({ params, request }) => requestEhrToken(params.providerId, request)),
  route(revokeEhrTokenOperation, ({ params, request }) => revokeEhrToken(params.providerId, request)),
  route(getEhrCapabilitiesOperation, ({ params }) => ({ body: getEhrCapabilities(params.providerId) })),
  route(searchEhrFhirOperation, async ({ params, query, request }) => ({
    body: await searchEhr(params.providerId, authorizeFhirRequest(params.providerId, request), {
      resourceType: params.resourceType,
      patient: query.patient,
      ids: query._id?.split(",").filter((id) => id !== ""),
      categories: query.category?.split(",").filter((category) => category !== ""),
      count: query._count,
      offset: query._offset,
    }),
  })),
  route(readEhrFhirOperation, async ({ params, request }) => ({
    body: await readEhr(params.providerId, authorizeFhirRequest(params.providerId, request), params.resourceType, params.resourceId),
  })),
]);
