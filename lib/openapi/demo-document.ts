import type { OperationDeclaration } from "@/lib/api";
import { DATA_NOTICE, DATA_NOTICE_HEADER, DEMO_BASE, DEMO_OPERATIONS, DEMO_POLICY, SCENARIO_HEADER } from "@/lib/demo";
import { HEADER } from "@/lib/http";
import { demoMcpOperation } from "@/lib/mcp";
import { buildOpenApiDocument } from "./build-document";
import type { OpenApiDocument } from "./document-types";
import { COMMON_HEADERS } from "./common-headers";
import { getDemoOpenApiOperation } from "./operations";
import { processState } from "@/lib/process-state";

/** Every /demo/v1 operation, in the order the document lists them. */
export const DEMO_DOCUMENT_OPERATIONS: readonly OperationDeclaration[] = [...DEMO_OPERATIONS, getDemoOpenApiOperation, demoMcpOperation];

/** The OpenAPI 3.1 document of the keyless demo API under /demo/v1, built once per process. */
export function getDemoOpenApi(): OpenApiDocument {
  return processState("openapi.demo-document", () => buildOpenApiDocument({
    title: "Chartkey demo API",
    version: "1",
    description:
      `Keyless and read-only. ${DATA_NOTICE} Limited to ${DEMO_POLICY.points} requests per ` +
      `${DEMO_POLICY.windowSeconds} seconds per client address and API instance: follow the RateLimit and ` +
      "Retry-After headers. Errors carry the error envelope; a 429 is never publicly cacheable. A keyless MCP server " +
      `at ${DEMO_BASE}/mcp (stateless Streamable HTTP) offers the read operations as tools that answer exactly as these routes.`,
    servers: [{ url: DEMO_BASE, description: "This deployment" }],
    tags: [
      { name: "Demo", description: "Index, availability, providers, this document and the demo MCP server (POST /mcp)." },
      { name: "Scenarios", description: "The scenario manifest and simulated Connect sessions." },
      { name: "Patients", description: "The synthetic patients." },
      { name: "Records", description: "Record reads, where scenario behaviors are simulated." },
      { name: "FHIR", description: "A read-only FHIR R4 server over the scenario Bundles." },
    ],
    operations: DEMO_DOCUMENT_OPERATIONS,
    headers: {
      ...withoutServiceVersion(COMMON_HEADERS),
      [DATA_NOTICE_HEADER]: { description: "Marks every demo response as fictional.", schema: { type: "string", const: DATA_NOTICE } },
      [SCENARIO_HEADER]: { description: "The behavior scenario a record read simulated.", schema: { type: "string" } },
    },
    responseHeaders: [HEADER.requestId, DATA_NOTICE_HEADER],
  }));
}

/** The demo is not versioned by date; its document does not describe the platform's Service-Version header. */
function withoutServiceVersion<T>(headers: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name !== HEADER.serviceVersion));
}
