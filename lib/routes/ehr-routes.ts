import { FHIR_PROFILE, route, routeTable, type RouteTable } from "@/lib/api";
import {
  authorizeFhirRequest,
  decideAuthorization,
  decideEhrAuthorization,
  ehrCapabilityStatement,
  getEhrCapabilities,
  getEhrRootSmartConfiguration,
  getEhrSmartConfiguration,
  handleRevocationRequest,
  handleTokenRequest,
  readEhr,
  readEhrFhir,
  requestEhrToken,
  revokeEhrToken,
  searchEhr,
  searchEhrFhir,
  showAuthorizePage,
  showEhrAuthorization,
  smartConfiguration,
} from "@/lib/ehr";

/**
 * `/ehr`: the synthetic health systems, each a SMART on FHIR server (authorization, token, revocation and a FHIR
 * API). A path no operation serves answers the FHIR family's OperationOutcome 404.
 */
export const EHR_ROUTES: RouteTable = routeTable("/ehr", FHIR_PROFILE, [
  route(getEhrRootSmartConfiguration, ({ params }) => ({ body: smartConfiguration(params.providerId) })),
  route(getEhrSmartConfiguration, ({ params }) => ({ body: smartConfiguration(params.providerId) })),
  route(showEhrAuthorization, ({ params, request }) => showAuthorizePage(params.providerId, request)),
  route(decideEhrAuthorization, ({ params, request }) => decideAuthorization(params.providerId, request)),
  route(requestEhrToken, ({ params, request }) => handleTokenRequest(params.providerId, request)),
  route(revokeEhrToken, ({ params, request }) => handleRevocationRequest(params.providerId, request)),
  route(getEhrCapabilities, ({ params }) => ({ body: ehrCapabilityStatement(params.providerId) })),
  route(searchEhrFhir, async ({ params, query, request }) => ({
    body: await searchEhr(params.providerId, authorizeFhirRequest(params.providerId, request), {
      resourceType: params.resourceType,
      patient: query.patient,
      ids: query._id?.split(",").filter((id) => id !== ""),
      categories: query.category?.split(",").filter((category) => category !== ""),
      count: query._count,
      offset: query._offset,
    }),
  })),
  route(readEhrFhir, async ({ params, request }) => ({
    body: await readEhr(params.providerId, authorizeFhirRequest(params.providerId, request), params.resourceType, params.resourceId),
  })),
]);
