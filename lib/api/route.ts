import type { z } from "zod";
import { INTERNAL_HEADER, newRequestId, recordRequest, requestPath, requestUrl, webResponse, type Answer, type IncomingRequest } from "@/lib/http";
import { idPattern } from "@/lib/ids";
import { log } from "@/lib/log";
import { contextFrom, inSpan, SpanKind } from "@/lib/tracing";
import { metrics, statusClass } from "@/lib/metrics";
import type { AuthKind } from "./authenticators";
import type { Handler } from "./handler";
import { operationName, type OperationDeclaration, type PipelineDeclaration } from "./operation";
import type { Profile } from "./profiles";
import { mapError } from "./error-mapping";
import { PIPELINE, type PipelineState } from "./steps";

export type NextRouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

/** An operation served: its answer, JSON not yet a Response when it is JSON (the platform server writes it itself). */
export type AnswerHandler = (request: IncomingRequest, context?: NextRouteContext) => Promise<Answer>;

/**
 * A route handler as Next.js calls it, carrying the declaration it serves (the route ↔ declaration test reads it)
 * and `answer`, the same operation answering without making a Response of its JSON.
 */
export type DeclaredHandler = ((request: Request, context?: NextRouteContext) => Promise<Response>) & {
  operation: OperationDeclaration;
  answer: AnswerHandler;
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
  const answer: AnswerHandler = (request, context) =>
    runPipeline(declaration.profile, declaration as OperationDeclaration, handler as unknown as Handler<AuthKind, unknown, unknown, unknown>, request, context);
  const serve = async (request: Request, context?: NextRouteContext) => webResponse(await answer(request, context));
  return Object.assign(serve, { operation: declaration as OperationDeclaration, answer });
}

export async function runPipeline(
  profile: Profile,
  declaration: PipelineDeclaration,
  handler: Handler<AuthKind, unknown, unknown, unknown>,
  request: IncomingRequest,
  context?: NextRouteContext,
): Promise<Answer> {
  // One span per request, named by the declared operation (never the raw path), continuing the caller's traceparent.
  return inSpan(
    operationName(declaration),
    { "http.request.method": request.method, "chartkey.operation": operationName(declaration) },
    async (span) => {
      const answer = await servePipeline(profile, declaration, handler, request, context);
      span.setAttribute("http.response.status_code", answer.status);
      return answer;
    },
    { kind: SpanKind.SERVER, parent: contextFrom(request.headers.get("traceparent")) },
  );
}

async function servePipeline(
  profile: Profile,
  declaration: PipelineDeclaration,
  handler: Handler<AuthKind, unknown, unknown, unknown>,
  request: IncomingRequest,
  context?: NextRouteContext,
): Promise<Answer> {
  const started = performance.now();
  const requestId = request.headers.get(INTERNAL_HEADER.requestId) || newRequestId();
  const state: PipelineState = {
    request,
    url: requestUrl(request),
    profile,
    declaration,
    handler,
    rawParams: (await context?.params) ?? {},
    requestId,
    headers: {},
    principal: null,
    logged: { subject: null },
  };

  let response: Answer;
  let errorCode: string | null = null;
  try {
    let answered: Answer | void = undefined;
    for (const step of PIPELINE) answered = (await step.run(state)) ?? answered;
    if (!answered) throw new Error(`no step of ${operationName(declaration)} answered`);
    response = answered;
  } catch (error) {
    ({ response, code: errorCode } = mapError(error, state));
  }

  const route = operationName(declaration);
  const elapsedMs = performance.now() - started;
  const latencyMs = Math.round(elapsedMs);
  log.info({ requestId, method: request.method, route, status: response.status, latencyMs }, "request");
  const key = state.principal && state.principal.kind === "key" ? state.principal : null;
  // In memory only (a counter and a histogram): the request path does no more work for the metrics.
  const measured = metrics();
  measured.requests.inc({ operation: route, status: String(response.status), environment: key?.environment ?? "none" });
  measured.requestSeconds.observe({ operation: route, status_class: statusClass(response.status) }, elapsedMs / 1000);
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
      withCursor: Boolean(state.url.searchParams.get("cursor")),
      latencyMs,
      createdAt: new Date(),
    });
  }
  return response;
}

/**
 * The subject the request concerns: the one its handler named (after authorizing the read), else the one its path
 * names, when it is shaped like one: the request log stores nothing else a client wrote.
 */
function subjectOf(state: PipelineState): string | null {
  if (state.logged.subject !== null && SUBJECT_ID.test(state.logged.subject)) return state.logged.subject;
  const name = state.declaration.subjectParam;
  if (!name) return null;
  const value = state.rawParams[name];
  return typeof value === "string" && SUBJECT_ID.test(value) ? value : null;
}

const SUBJECT_ID = idPattern("u_");
