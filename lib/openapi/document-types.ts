import type { JsonSchema } from "./schema-components";

// The subset of OpenAPI 3.1 that buildOpenApiDocument writes, typed so the docs page can read it without guessing.

export type OpenApiParameter = {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  schema: JsonSchema;
  example?: unknown;
};

export type OpenApiMethod = "get" | "post" | "put" | "patch" | "delete";

export type OpenApiMedia = { schema: JsonSchema; example?: unknown };

export type OpenApiResponse = {
  description: string;
  headers: Record<string, { $ref: string }>;
  content: Record<string, OpenApiMedia>;
  /** The error codes an error response stands for. */
  "x-error-codes"?: string[];
};

/** A request the platform makes to the application: its body, and what the application answers. */
export type OpenApiWebhook = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  requestBody: { required: true; description: string; content: Record<string, OpenApiMedia> };
  responses: Record<string, { description: string }>;
};

export type OpenApiOperation = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; description: string; content: Record<string, OpenApiMedia> };
  responses: Record<string, OpenApiResponse>;
};

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security?: Record<string, string[]>[];
  paths: Record<string, Partial<Record<OpenApiMethod, OpenApiOperation>>>;
  /** What the platform sends to the application's webhook URL (OpenAPI 3.1 `webhooks`), by name. */
  webhooks?: Record<string, { post: OpenApiWebhook }>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>;
  };
};
