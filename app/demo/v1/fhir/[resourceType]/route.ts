import { demoMethods, demoRoute } from "@/lib/demo/demo-route";
import { FHIR_JSON } from "@/lib/demo/fhir-read";
import { searchFhir } from "@/lib/demo/fhir-search";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = demoMethods({
  GET: demoRoute({
    handler: ({ params, url }) => ({
      body: searchFhir(params.resourceType ?? "", url.searchParams.get("patient"), url.origin),
      contentType: FHIR_JSON,
    }),
  }),
});
