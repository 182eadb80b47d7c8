import type { z } from "zod";
import { ApiError } from "@/lib/http/api-error";
import { errorResponse } from "@/lib/http/error-response";
import { HEADER } from "@/lib/http/headers";
import { readJsonBody } from "@/lib/http/read-json-body";
import { completeMethods, type MethodName, type NextRouteContext, type RouteHandler } from "@/lib/http/route-methods";
import { newRequestId, toApiError } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/zod-issues";
import { DATA_NOTICE, DATA_NOTICE_HEADER } from "./notice";
import { consumeDemoRateLimit } from "./rate-limit";

/** Fixed fictional data may be cached briefly by browsers and shared caches. */
const PUBLIC_CACHE = "public, max-age=60";

export type DemoResult = {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** FHIR routes answer `application/fhir+json`. */
  contentType?: string;
};

export type DemoHandlerArgs<B> = {
  request: Request;
  url: URL;
  params: Record<string, string>;
  body: B;
  /** Sets a header on the response, whether the handler then returns or throws. */
  setHeader: (name: string, value: string) => void;
};

type DemoRouteOptions<B extends z.ZodType | undefined> = {
  body?: B;
  /** Responses that simulate per-request state (consent, sync, rate-limit slots) must not be cached. */
  cache?: "public" | "no-store";
  handler: (args: DemoHandlerArgs<B extends z.ZodType ? z.output<B> : undefined>) => DemoResult | Promise<DemoResult>;
};

/**
 * The one wrapper every /demo/v1 route uses: request id and data notice on every response, the per-address rate
 * limit, JSON body reading and zod parsing, cache headers, and the error envelope for anything thrown.
 */
export function demoRoute<B extends z.ZodType | undefined = undefined>(options: DemoRouteOptions<B>) {
  return async function handle(request: Request, context?: NextRouteContext): Promise<Response> {
    const requestId = newRequestId();
    const headers: Record<string, string> = { [HEADER.requestId]: requestId, [DATA_NOTICE_HEADER]: DATA_NOTICE };
    try {
      Object.assign(headers, consumeDemoRateLimit(request));
      const params = flattenParams((await context?.params) ?? {});
      const body = options.body ? parseOrThrow(options.body, await readJsonBody(request), "body") : undefined;
      const result = await options.handler({
        request,
        url: new URL(request.url),
        params,
        body: body as never,
        setHeader: (name, value) => {
          headers[name] = value;
        },
      });
      return Response.json(result.body, {
        status: result.status ?? 200,
        headers: {
          ...headers,
          "Cache-Control": options.cache === "no-store" ? "no-store" : PUBLIC_CACHE,
          ...(result.contentType ? { "Content-Type": result.contentType } : {}),
          ...result.headers,
        },
      });
    } catch (error) {
      // errorResponse marks every error `no-store`, so a 429 is never publicly cached.
      return errorResponse(toApiError(error, requestId), requestId, headers);
    }
  };
}

function flattenParams(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) params[name] = Array.isArray(value) ? value.join("/") : value;
  }
  return params;
}

/** 404 `not_found` in the demo's envelope, for unknown demo paths and methods a path does not serve. */
export function demoNotFound(allowed?: string[]) {
  return demoRoute({
    handler: ({ request, url }) => {
      if (allowed) {
        throw new ApiError("not_found", `${request.method} is not supported on ${url.pathname}; use ${allowed.join(", ")}.`, {
          headers: { Allow: allowed.join(", ") },
        });
      }
      throw new ApiError("not_found", `No demo operation at ${request.method} ${url.pathname}.`);
    },
  });
}

/** Completes a demo route file's handlers so that every other method answers with the demo's 404 envelope. */
export function demoMethods(handlers: Partial<Record<MethodName, RouteHandler>>): Record<MethodName, RouteHandler> {
  return completeMethods(handlers, demoNotFound);
}
