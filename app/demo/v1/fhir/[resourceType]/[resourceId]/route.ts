import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { FHIR_JSON, readFhirResource } from "@/lib/demo/fhir-read";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({
    handler: ({ params }) => ({
      body: readFhirResource(params.resourceType ?? "", params.resourceId ?? ""),
      contentType: FHIR_JSON,
    }),
  }),
});
