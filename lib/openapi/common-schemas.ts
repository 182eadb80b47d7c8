import { z } from "zod";

/** The body of every error response, keyed and demo alike. */
export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      type: z.enum(["api_error", "invalid_request_error"]).describe("api_error for 5xx, invalid_request_error otherwise."),
      code: z.string().describe("Stable machine-readable code; branch on this, not on message."),
      message: z.string().describe("Human-readable explanation; may change."),
      requestId: z.string().describe("Id of this request, also in the Request-Id header; quote it in support requests."),
    }),
  })
  .meta({ id: "ErrorEnvelope", description: "The error envelope every error response carries." });

export const openApiDocumentSchema = z
  .looseObject({ openapi: z.string().describe("3.1.0") })
  .meta({ id: "OpenApiDocument", description: "An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0)." });
