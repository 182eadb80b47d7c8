import type { z } from "zod";
import type { AgentOperation } from "@/lib/auth";
import type { ErrorCode } from "@/lib/http";
import type { AuthKind } from "./authenticators";
import type { Profile } from "./profiles";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A response an operation documents: its status, what it means, the zod shape of its body and an example. */
export type ResponseDeclaration = {
  status: number;
  description: string;
  schema: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  /** A real answer, built on demand for the OpenAPI document and the docs page. */
  example?: () => unknown;
};

/**
 * One API operation, declared once. The route handler, the OpenAPI document (and so the docs page), the request
 * log's route name and the MCP tool of the same name are all built from this; nothing else repeats its method,
 * path, auth or shapes. `params` and `query` are zod objects whose fields carry `.describe()` and
 * `.meta({ example })`, so the same schema parses the request and documents the parameter.
 */
export type OperationDeclaration<
  A extends AuthKind = AuthKind,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> = {
  /** The API family: its headers, limits, error format and browser access. */
  profile: Profile;
  method: HttpMethod;
  /** Path template relative to the profile's prefix, as in the spec's tables: `/users/{subject}/records`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
  bodyDescription?: string;
  /** A whole request body, for the documents (field examples only show one field at a time). */
  bodyExample?: () => unknown;
  /**
   * Request headers the operation reads itself (e.g. If-Match), as a zod object of optional strings keyed by header
   * name, for the documents; the handler reads them from the request.
   */
  requestHeaders?: z.ZodObject;
  success: ResponseDeclaration;
  /** Non-error responses besides the main one, e.g. a health check's 503 with the same body. */
  otherResponses?: ResponseDeclaration[];
  /** Codes the operation itself can answer; the profile adds what its steps can answer (auth, limits, 5xx). */
  errors: ErrorCode[];
  /** Names of extra response headers the operation sets (beyond the profile's). */
  headers?: string[];
  /** POST creates that honour `Idempotency-Key`. */
  idempotent?: boolean;
  /** Cache-Control of successful answers; defaults to the profile's (no-store, or briefly public for fixed data). */
  cache?: string;
  /** The path parameter naming the subject a request concerns, for the request log (the conformance grader reads it). */
  subjectParam?: string;
  /**
   * A keyed read a delegated credential may also make, when granted this operation (named after its MCP tool). The
   * pipeline checks the credential covers the request's subject, receipt and categories before the handler runs.
   */
  agentOperation?: AgentOperation;
};

/** Declares an operation; the identity function keeps the literal types the route handler infers from. */
export function defineOperation<
  A extends AuthKind,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(declaration: OperationDeclaration<A, P, Q, B>): OperationDeclaration<A, P, Q, B> {
  return declaration;
}

/** What the pipeline needs of an operation; the families' 404 and OPTIONS answers are operations in this sense. */
export type PipelineDeclaration = { method: string; path: string; auth: AuthKind } & Partial<Omit<OperationDeclaration, "method" | "path" | "auth">>;

/** The name the request log and messages use: `GET /users/{subject}/records`. */
export function operationName(declaration: { method: string; path: string }): string {
  return `${declaration.method} ${declaration.path}`;
}
