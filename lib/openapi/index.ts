export { openApiDocumentSchema, errorEnvelopeSchema } from "./common-schemas";
export { DEMO_DOCUMENT_OPERATIONS, getDemoOpenApi } from "./demo-document";
export type { OpenApiDocument, OpenApiMethod, OpenApiOperation, OpenApiParameter, OpenApiResponse } from "./document-types";
export { getDemoOpenApiOperation, getPlatformOpenApiOperation } from "./operations";
export { PLATFORM_OPERATIONS, getPlatformOpenApi } from "./platform-document";
export type { JsonSchema } from "./schema-components";
export { toolCatalog, type ToolSummary } from "./mcp-tools";
export { errorCodesMarkdown, referenceDocument, type CodeSample, type ReferenceDocumentKey } from "./reference-document";
