import { route, type DeclaredHandler } from "@/lib/api";
import { publicOrigin } from "@/lib/config";
import {
  getFhirMetadata,
  getFhirMetadataOperation,
  getFhirPatientEverything,
  getFhirPatientEverythingOperation,
  readFhirPatient,
  readFhirPatientOperation,
  readFhirResource,
  readFhirResourceOperation,
  searchFhir,
  searchFhirOperation,
} from "@/lib/fhir-api";

/** The FHIR base clients are given: `{origin}/api/v1/fhir`. */
const fhirBase = (url: URL) => `${publicOrigin(url.origin)}/api/v1/fhir`;

/** `/api/v1/fhir` (issue 52): PLATFORM_HANDLERS appends these. */
export const FHIR_HANDLERS: readonly DeclaredHandler[] = [
  route(getFhirMetadataOperation, ({ url }) => ({ body: getFhirMetadata(fhirBase(url)) })),
  // Each read names its subject for the request log once authorized (logSubject), as the records routes' paths do.
  route(readFhirPatientOperation, async ({ auth, agentSubject, logSubject, params }) => ({ body: await readFhirPatient({ key: auth, agentSubject, logSubject }, params.subject) })),
  route(getFhirPatientEverythingOperation, async ({ auth, agentSubject, logSubject, params, url }) => ({
    body: await getFhirPatientEverything({ reader: { key: auth, agentSubject, logSubject }, base: fhirBase(url), subject: params.subject, params: url.searchParams }),
  })),
  route(searchFhirOperation, async ({ auth, agentSubject, logSubject, params, url, requestId }) => ({
    body: await searchFhir({ reader: { key: auth, agentSubject, logSubject }, base: fhirBase(url), requestId, resourceType: params.resourceType, params: url.searchParams }),
  })),
  route(readFhirResourceOperation, async ({ auth, agentSubject, logSubject, params }) => ({
    body: await readFhirResource({ key: auth, agentSubject, logSubject }, params.resourceType, params.id),
  })),
];
