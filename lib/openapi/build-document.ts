import { z } from "zod";
import { documentedErrors, documentedHeaders, type OperationDeclaration, type ResponseDeclaration } from "@/lib/api";
import { ERROR_STATUS, errorTypeForStatus, HEADER, type ErrorCode } from "@/lib/http";
import { errorEnvelopeSchema } from "./common-schemas";
import type { OpenApiDocument, OpenApiMethod, OpenApiOperation, OpenApiParameter, OpenApiResponse } from "./document-types";
import { SchemaComponents, type JsonSchema } from "./schema-components";

export type HeaderSpec = { description: string; schema: JsonSchema };

export type DocumentSpec = {
  title: string;
  version: string;
  description: string;
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  operations: readonly OperationDeclaration[];
  /** Response headers, by header name, that responses may reference. */
  headers: Record<string, HeaderSpec>;
  /** Header names present on every response of the document. */
  responseHeaders: string[];
  /** Requests the platform sends to the application (OpenAPI 3.1 `webhooks`), by name. */
  webhooks?: Record<string, { operationId: string; tag: string; summary: string; description: string; schema: z.ZodType }>;
  /** The security scheme keyed operations use; keyless operations declare `security: []`. Omit for a keyless API. */
  security?: { name: string; scheme: { type: "http"; scheme: string; description: string } };
};

/** The error code table's description of each status, for response descriptions. */
const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  410: "Gone",
  413: "Payload too large",
  415: "Unsupported media type",
  429: "Too many requests",
  500: "Server error",
  503: "Unavailable",
};

/** Assembles an OpenAPI 3.1 document whose schemas are all generated from the operations' zod shapes. */
export function buildOpenApiDocument(spec: DocumentSpec): OpenApiDocument {
  const components = new SchemaComponents();
  const errorSchema = components.convert(errorEnvelopeSchema);
  const paths: OpenApiDocument["paths"] = {};

  for (const operation of spec.operations) {
    const headerNames = [...spec.responseHeaders, ...documentedHeaders(operation)];
    const pathItem = (paths[operation.path] ??= {});
    const method = operation.method.toLowerCase() as OpenApiMethod;
    if (pathItem[method]) throw new Error(`Duplicate operation ${operation.method} ${operation.path}`);
    pathItem[method] = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      ...(operation.auth === "none" ? { security: [] } : {}),
      ...parameters(operation, components),
      ...(operation.body
        ? {
            requestBody: {
              required: true,
              description: operation.bodyDescription ?? "The request body.",
              content: {
                "application/json": {
                  schema: components.convert(operation.body, "input"),
                  ...(operation.bodyExample ? { example: operation.bodyExample() } : {}),
                },
              },
            },
          }
        : {}),
      responses: {
        ...Object.fromEntries(
          [operation.success, ...(operation.otherResponses ?? [])].map((response) => [
            String(response.status),
            successResponse(response, headerNames, components),
          ]),
        ),
        ...errorResponses(documentedErrors(operation), headerNames, errorSchema),
      },
    };
  }

  return {
    openapi: "3.1.0",
    info: { title: spec.title, version: spec.version, description: spec.description, license: { name: "Apache-2.0", identifier: "Apache-2.0" } },
    servers: spec.servers,
    tags: spec.tags,
    ...(spec.security ? { security: [{ [spec.security.name]: [] }] } : {}),
    paths,
    ...(spec.webhooks
      ? {
          webhooks: Object.fromEntries(
            Object.entries(spec.webhooks).map(([name, webhook]) => [
              name,
              {
                post: {
                  operationId: webhook.operationId,
                  tags: [webhook.tag],
                  summary: webhook.summary,
                  description: webhook.description,
                  requestBody: { required: true, description: "The event.", content: { "application/json": { schema: components.convert(webhook.schema) } } },
                  responses: { "200": { description: "Any 2xx answer acknowledges the event; anything else is retried." } },
                },
              },
            ]),
          ),
        }
      : {}),
    components: {
      schemas: components.schemas,
      headers: Object.fromEntries(
        Object.entries(spec.headers).map(([name, header]) => [name, { description: header.description, schema: header.schema }]),
      ),
      ...(spec.security ? { securitySchemes: { [spec.security.name]: spec.security.scheme } } : {}),
    },
  };
}

function successResponse(response: ResponseDeclaration, headerNames: string[], components: SchemaComponents): OpenApiResponse {
  const example = response.example?.();
  return {
    description: response.description,
    headers: headerRefs(headerNames),
    content: {
      [response.contentType ?? "application/json"]: {
        schema: components.convert(response.schema),
        ...(example !== undefined ? { example } : {}),
      },
    },
  };
}

/** The header an idempotent create honours (the pipeline reads it for every operation declared `idempotent`). */
const idempotencyHeaders = z.object({
  [HEADER.idempotencyKey]: z
    .string()
    .max(200)
    .optional()
    .describe(
      "Any unique string of yours, at most 200 characters, scoped to the application and environment. A retry with the same key and body " +
        "answers the first result (Idempotent-Replayed: true) instead of creating again; the same key with another body is 409 idempotency_conflict.",
    ),
});

/** Path, query and header parameters, read off the zod objects the pipeline parses them with (headers: the handler). */
function parameters(operation: OperationDeclaration, components: SchemaComponents): Pick<OpenApiOperation, "parameters"> {
  const list = [
    ...fields(operation.params, "path", components),
    ...fields(operation.query, "query", components),
    ...fields(operation.requestHeaders, "header", components),
    ...(operation.idempotent ? fields(idempotencyHeaders, "header", components) : []),
  ];
  return list.length > 0 ? { parameters: list } : {};
}

function fields(schema: z.ZodType | undefined, where: OpenApiParameter["in"], components: SchemaComponents): OpenApiParameter[] {
  if (!schema) return [];
  if (!(schema instanceof z.ZodObject)) throw new Error(`${where} parameters must be declared as a zod object`);
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const meta = (field.meta() ?? {}) as { description?: string; example?: unknown };
    const description = field.description ?? meta.description;
    if (!description) throw new Error(`The ${where} parameter ${name} needs a description`);
    return {
      name,
      in: where,
      required: where === "path" || !field.safeParse(undefined).success,
      description,
      schema: components.convert(field, "input"),
      ...(meta.example !== undefined ? { example: meta.example } : {}),
    };
  });
}

function headerRefs(names: string[]): OpenApiResponse["headers"] {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** One response per status, listing its codes in `x-error-codes` so readers (and the docs page) see every code. */
function errorResponses(codes: ErrorCode[], headerNames: string[], errorSchema: JsonSchema): Record<string, OpenApiResponse> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const statusCodes = byStatus.get(status) ?? [];
      // A 429, and a 503 for a database that did not answer in time, say when to try again.
      const names = status === 429 || statusCodes.includes("database_unavailable") ? [...headerNames, "Retry-After"] : headerNames;
      const example = { error: { type: errorTypeForStatus(status), code: statusCodes[0], message: "What went wrong, in words.", requestId: "req_5d1c0a7e9f2b4c6d8e0f1a2b" } };
      const response: OpenApiResponse = {
        description: `${STATUS_TEXT[status] ?? "Error"}: ${statusCodes.join(", ")}`,
        headers: headerRefs(names),
        content: { "application/json": { schema: errorSchema, example } },
        "x-error-codes": statusCodes,
      };
      return [String(status), response];
    }),
  );
}
