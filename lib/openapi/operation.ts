import type { z } from "zod";
import type { ErrorCode } from "@/lib/http/error-codes";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export type ParameterSpec = {
  name: string;
  schema: z.ZodType;
  description: string;
  required?: boolean;
  example?: unknown;
};

export type SuccessSpec = {
  status: number;
  description: string;
  schema: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
};

/** One API operation as the OpenAPI builder needs it: the spec's table row plus the zod shapes it uses. */
export type OperationSpec = {
  method: HttpMethod;
  /** OpenAPI path template relative to the server URL, e.g. `/users/{subject}/records`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** `none` operations need no credentials; documents name their default security scheme. */
  auth?: "none" | "default";
  pathParams?: ParameterSpec[];
  query?: ParameterSpec[];
  body?: { schema: z.ZodType; description: string };
  success: SuccessSpec;
  /** Non-error responses besides the main one, e.g. a health check's 503 with the same body. */
  otherResponses?: SuccessSpec[];
  /** Error codes the operation can answer; grouped by status into responses. */
  errors: ErrorCode[];
  /** Names of document header components this operation adds to every response. */
  headers?: string[];
};
