import { DEMO_BASE } from "@/lib/demo/links";
import { DATA_NOTICE, DATA_NOTICE_HEADER } from "@/lib/demo/notice";
import { DEMO_POLICY } from "@/lib/demo/rate-limit";
import { SCENARIO_HEADER } from "@/lib/demo/record-read";
import { HEADER } from "@/lib/http/headers";
import { buildOpenApiDocument } from "./build-document";
import type { OpenApiDocument } from "./document-types";
import { COMMON_HEADERS } from "./common-headers";
import { demoOperations } from "./demo-operations";

let cached: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document of the keyless demo API under /demo/v1, built once per process. */
export function demoOpenApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument({
    title: "Chartkey demo API",
    version: "1",
    description:
      `Keyless and read-only. ${DATA_NOTICE} Limited to ${DEMO_POLICY.points} requests per ` +
      `${DEMO_POLICY.windowSeconds} seconds per client address and API instance: follow the RateLimit and ` +
      "Retry-After headers. Errors carry the error envelope; a 429 is never publicly cacheable.",
    servers: [{ url: DEMO_BASE, description: "This deployment" }],
    tags: [
      { name: "Demo", description: "Index, availability, providers and this document." },
      { name: "Scenarios", description: "The scenario manifest and simulated Connect sessions." },
      { name: "Patients", description: "The synthetic patients." },
      { name: "Records", description: "Record reads, where scenario behaviors are simulated." },
      { name: "FHIR", description: "A read-only FHIR R4 server over the scenario Bundles." },
    ],
    operations: demoOperations(),
    headers: {
      ...COMMON_HEADERS,
      [DATA_NOTICE_HEADER]: { description: "Marks every demo response as fictional.", schema: { type: "string", const: DATA_NOTICE } },
      [SCENARIO_HEADER]: { description: "The behavior scenario a record read simulated.", schema: { type: "string" } },
    },
    responseHeaders: [HEADER.requestId, DATA_NOTICE_HEADER, HEADER.rateLimitPolicy, HEADER.rateLimit],
  });
  return cached;
}
