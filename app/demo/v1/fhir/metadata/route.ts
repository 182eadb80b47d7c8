import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { capabilityStatement } from "@/lib/demo/fhir-capability";
import { FHIR_JSON } from "@/lib/demo/fhir-read";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({ handler: ({ url }) => ({ body: capabilityStatement(url.origin), contentType: FHIR_JSON }) }),
});
