import { ApiError, webResponse } from "@/lib/http";
import type { HttpMethod } from "./operation";
import type { Profile } from "./profiles";
import { runPipeline, type AnswerHandler, type DeclaredHandler, type NextRouteContext } from "./route";

/** What a path answers, method by method. */
export type RouteAnswers = Record<HttpMethod | "OPTIONS", AnswerHandler>;

/** A route file's exports, as Next.js calls them; each also answers without making a Response of its JSON. */
export type RouteExports = Record<HttpMethod | "OPTIONS", ((request: Request, context?: NextRouteContext) => Promise<Response>) & { answer: AnswerHandler }>;

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * A path's answers in a dispatch table: its declared operations, an OPTIONS answer naming them (a CORS preflight for
 * families browsers may call), and the family's 404 `not_found` naming the allowed methods for every other method,
 * instead of Next.js's bare 405.
 */
export function pathAnswers(handlers: Partial<Record<HttpMethod, DeclaredHandler>>): RouteAnswers {
  const declared = Object.entries(handlers) as [HttpMethod, DeclaredHandler][];
  const first = declared[0];
  if (!first) throw new Error("a path needs at least one operation");
  const profiles = new Set(declared.map(([, handler]) => handler.operation.profile));
  if (profiles.size > 1) throw new Error(`One path serves one API family, not ${[...profiles].map((p) => p.name).join(" and ")}`);
  for (const [method, handler] of declared) {
    if (handler.operation.method !== method) throw new Error(`${handler.operation.operationId} is a ${handler.operation.method} operation, exported as ${method}`);
  }
  const profile = first[1].operation.profile;
  const allowed = declared.map(([method]) => method);
  const otherwise = notFoundHandler(profile, allowed);
  const answers = { OPTIONS: optionsHandler(profile, allowed) } as RouteAnswers;
  for (const method of METHODS) answers[method] = handlers[method]?.answer ?? otherwise;
  return answers;
}

/** Answers as a route file exports them. */
export function routeExports(answers: RouteAnswers): RouteExports {
  const entries = Object.entries(answers).map(([method, answer]) => {
    const handler = async (request: Request, context?: NextRouteContext) => webResponse(await answer(request, context));
    return [method, Object.assign(handler, { answer })];
  });
  return Object.fromEntries(entries) as RouteExports;
}

/** Every method of a path no operation serves: the family's 404 `not_found` (catch-all route files export this). */
export function unknownPath(profile: Profile): RouteAnswers {
  const handler = notFoundHandler(profile);
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}

function notFoundHandler(profile: Profile, allowed?: HttpMethod[]): AnswerHandler {
  return (request, context) =>
    runPipeline(profile, UNKNOWN_OPERATION, ({ url }) => {
      if (!allowed) throw new ApiError("not_found", `No operation at ${request.method} ${url.pathname}.`);
      throw new ApiError("not_found", `${request.method} is not supported on ${url.pathname}; use ${allowed.join(", ")}.`, {
        headers: { Allow: allowed.join(", ") },
      });
    }, request, context);
}

function optionsHandler(profile: Profile, allowed: HttpMethod[]): AnswerHandler {
  const allow = [...allowed, "OPTIONS"].join(", ");
  const preflight: Record<string, string> = profile.cors
    ? { "Access-Control-Allow-Methods": allow, "Access-Control-Allow-Headers": ["Content-Type", ...(profile.allowedHeaders ?? [])].join(", "), "Access-Control-Max-Age": "600" }
    : {};
  return (request, context) =>
    runPipeline(profile, { ...UNKNOWN_OPERATION, method: "OPTIONS" }, () => new Response(null, { status: 204, headers: { Allow: allow, ...preflight } }), request, context);
}

const UNKNOWN_OPERATION = { method: "ANY", path: "(unknown)", auth: "none" } as const;
