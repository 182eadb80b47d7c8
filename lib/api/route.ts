import type { z } from "zod";
import { INTERNAL_HEADER, newRequestId, recordRequest, requestPath } from "@/lib/http";
import { idPattern } from "@/lib/ids";
import { log } from "@/lib/log";
import type { AuthKind } from "./authenticators";
import type { Handler } from "./handler";
import { operationName, type OperationDeclaration, type PipelineDeclaration } from "./operation";
import type { Profile } from "./profiles";
import { mapError } from "./error-mapping";
import { PIPELINE, type PipelineState } from "./steps";

export type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** A route handler as Next.js calls it, carrying the declaration it serves (the route ↔ declaration test reads it). */
export type DeclaredHandler = ((request: Request, context?: NextRouteContext) => Promise<Response>) & {
  operation: OperationDeclaration;
};

/**
 * The one way to serve an operation: its declaration, its handler, and the profile's pipeline around them. The
 * steps (lib/api/steps.ts) run in their declared order; anything thrown becomes the profile's error answer; every
 * request is logged with the operation's name, and keyed requests also go to the request log table.
 */
export function route<A extends AuthKind, P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  declaration: OperationDeclaration<A, P, Q, B>,
  handler: Handler<A, P, Q, B>,
): DeclaredHandler {
  const serve = async (request: Request, context?: NextRouteContext) =>
    runPipeline(declaration.profile, declaration as OperationDeclaration, handler as unknown as Handler<AuthKind, unknown, unknown, unknown>, request, context);
  return Object.assign(serve, { operation: declaration as OperationDeclaration });
}

export async function runPipeline(
  profile: Profile,
  declaration: PipelineDeclaration,
  handler: Handler<AuthKind, unknown, unknown, unknown>,
  request: Request,
  context?: NextRouteContext,
): Promise<Response> {
  const started = performance.now();
  const requestId = request.headers.get(INTERNAL_HEADER.requestId) || newRequestId();
  const state: PipelineState = {
    request,
    url: new URL(request.url),
    profile,
    declaration,
    handler,
    rawParams: (await context?.params) ?? {},
    requestId,
    headers: {},
    principal: null,
  };

  let response: Response;
  let errorCode: string | null = null;
  try {
    for (const step of PIPELINE) await step.run(state);
    response = state.response as Response;
  } catch (error) {
    ({ response, code: errorCode } = mapError(error, state));
  }

  const route = operationName(declaration);
  const latencyMs = Math.round(performance.now() - started);
  log.info({ requestId, method: request.method, route, status: response.status, latencyMs }, "request");
  const key = state.principal && state.principal.kind === "key" ? state.principal : null;
  if (key) {
    recordRequest({
      requestId,
      apiKeyId: key.apiKeyId,
      agentCredentialId: state.agent?.credentialId ?? null,
      applicationId: key.application.id,
      environment: key.environment,
      conformanceRunId: key.conformanceRunId,
      method: request.method,
      route,
      path: requestPath(request.url),
      subjectId: subjectOf(state),
      status: response.status,
      errorCode,
      latencyMs,
      createdAt: new Date(),
    });
  }
  return response;
}

/** The subject the request names, when it is shaped like one: the request log stores nothing else a client wrote. */
function subjectOf(state: PipelineState): string | null {
  const name = state.declaration.subjectParam;
  if (!name) return null;
  const value = state.rawParams[name];
  return typeof value === "string" && SUBJECT_ID.test(value) ? value : null;
}

const SUBJECT_ID = idPattern("u_");
