import { z } from "zod";
import { PLATFORM_OPERATIONS } from "@/lib/openapi";

/** What a test generated from the declarations needs to know of one /api/v1 operation. */
export type DeclaredOperation = {
  operationId: string;
  method: string;
  /** Path template under /api/v1, e.g. `/users/{subject}/records`. */
  path: string;
  auth: string;
  /** Names of its path parameters, in path order. */
  params: string[];
  /** Whether it takes a JSON body. */
  body: boolean;
  errors: readonly string[];
  /** The MCP tool name under which a delegated credential may call it, if any. */
  agentOperation?: string;
};

/**
 * Every /api/v1 operation, read from the one list the OpenAPI document, the MCP tools and the route files are built
 * from (`PLATFORM_OPERATIONS`). Tests that must cover every operation read them here, so that a new operation joins
 * them by being declared, and a change to where the declarations live is adapted in this one place.
 */
export function declaredPlatformOperations(): DeclaredOperation[] {
  return PLATFORM_OPERATIONS.map((operation) => ({
    operationId: operation.operationId,
    method: operation.method,
    path: operation.path,
    auth: operation.auth,
    params: [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!),
    body: operation.body !== undefined && !(operation.body instanceof z.ZodUndefined),
    errors: operation.errors,
    agentOperation: operation.agentOperation,
  }));
}
