import { ERROR_STATUS, type ErrorCode } from "@/lib/http/error-codes";
import { errorEnvelopeSchema } from "./common-schemas";
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter, OpenApiResponse } from "./document-types";
import type { OperationSpec, ParameterSpec } from "./operation";
import { SchemaComponents, type JsonSchema } from "./schema-components";

export type HeaderSpec = { description: string; schema: JsonSchema };

export type DocumentSpec = {
  title: string;
  version: string;
  description: string;
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  operations: readonly OperationSpec[];
  /** Response headers, by header name, that responses may reference. */
  headers: Record<string, HeaderSpec>;
  /** Header names present on every response of the document. */
  responseHeaders: string[];
  /** The security scheme operations use unless they say `auth: "none"`; omit for a keyless API. */
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
    const headerNames = [...spec.responseHeaders, ...(operation.headers ?? [])];
    const pathItem = (paths[operation.path] ??= {});
    if (pathItem[operation.method]) throw new Error(`Duplicate operation ${operation.method} ${operation.path}`);
    pathItem[operation.method] = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      ...(spec.security && operation.auth === "none" ? { security: [] } : {}),
      ...parameters(operation, components),
      ...(operation.body
        ? {
            requestBody: {
              required: true,
              description: operation.body.description,
              content: { "application/json": { schema: components.convert(operation.body.schema, "input") } },
            },
          }
        : {}),
      responses: {
        ...Object.fromEntries(
          [operation.success, ...(operation.otherResponses ?? [])].map((response) => [
            String(response.status),
            {
              description: response.description,
              headers: headerRefs(headerNames),
              content: { [response.contentType ?? "application/json"]: { schema: components.convert(response.schema) } },
            },
          ]),
        ),
        ...errorResponses(operation.errors, headerNames, errorSchema),
      },
    };
  }

  return {
    openapi: "3.1.0",
    info: { title: spec.title, version: spec.version, description: spec.description },
    servers: spec.servers,
    tags: spec.tags,
    ...(spec.security ? { security: [{ [spec.security.name]: [] }] } : {}),
    paths,
    components: {
      schemas: components.schemas,
      headers: Object.fromEntries(
        Object.entries(spec.headers).map(([name, header]) => [name, { description: header.description, schema: header.schema }]),
      ),
      ...(spec.security ? { securitySchemes: { [spec.security.name]: spec.security.scheme } } : {}),
    },
  };
}

function parameters(operation: OperationSpec, components: SchemaComponents): Pick<OpenApiOperation, "parameters"> {
  const toParameter = (where: "path" | "query") => (parameter: ParameterSpec): OpenApiParameter => ({
    name: parameter.name,
    in: where,
    required: where === "path" ? true : (parameter.required ?? false),
    description: parameter.description,
    schema: components.convert(parameter.schema, "input"),
    ...(parameter.example !== undefined ? { example: parameter.example } : {}),
  });
  const list = [...(operation.pathParams ?? []).map(toParameter("path")), ...(operation.query ?? []).map(toParameter("query"))];
  return list.length > 0 ? { parameters: list } : {};
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
      const names = status === 429 ? [...headerNames, "Retry-After"] : headerNames;
      const response: OpenApiResponse = {
          description: `${STATUS_TEXT[status] ?? "Error"}: ${statusCodes.join(", ")}`,
          headers: headerRefs(names),
          content: { "application/json": { schema: errorSchema } },
          "x-error-codes": statusCodes,
      };
      return [String(status), response];
    }),
  );
}
