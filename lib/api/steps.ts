import { admitKeyRequest } from "@/lib/auth";
import {
  ApiError,
  HEADER,
  parseOrThrow,
  readJsonBody,
  requestClientAddress,
  requestFingerprint,
  validateIdempotencyKey,
  withIdempotency,
} from "@/lib/http";
import { assertAddressMayAuthenticate, recordAuthFailure } from "./auth-failure-limit";
import { AUTHENTICATORS, type AuthKind, type Principals } from "./authenticators";
import type { PipelineDeclaration } from "./operation";
import { corsHeaders, type Profile } from "./profiles";
import type { Handler, HandlerResult } from "./route";

/** What the steps read and fill in as a request moves through the pipeline. */
export type PipelineState = {
  request: Request;
  url: URL;
  profile: Profile;
  declaration: PipelineDeclaration;
  handler: Handler<AuthKind, unknown, unknown, unknown>;
  rawParams: Record<string, string | string[] | undefined>;
  requestId: string;
  /** Put on the answer whatever it is: success, the profile's error, or a 429. */
  headers: Record<string, string>;
  principal: Principals[AuthKind];
  rawBody?: Record<string, unknown>;
  parsed?: { params: unknown; query: unknown; body: unknown };
  idempotencyKey?: string;
  response?: Response;
};

export type Step = { name: string; run: (state: PipelineState) => void | Promise<void> };

const requestId: Step = {
  name: "request id",
  run: (state) => {
    state.headers[HEADER.requestId] = state.requestId;
  },
};

/** The family's own headers (Service-Version, the demo's data notice) and, for browser-callable families, CORS. */
const versionHeader: Step = {
  name: "version header",
  run: (state) => {
    Object.assign(state.headers, state.profile.familyHeaders, corsHeaders(state.profile, state.declaration.headers));
  },
};

const addressLimit: Step = {
  name: "address limit",
  run: (state) => {
    if (state.profile.addressLimit) Object.assign(state.headers, state.profile.addressLimit(state.request));
  },
};

/**
 * Resolves the caller. An address that spent its failed authentications is refused before any lookup, and each
 * unknown key it tries counts against it, so guessing keys from one address stops after a handful.
 */
const authenticate: Step = {
  name: "authentication",
  run: async (state) => {
    const kind = state.declaration.auth;
    if (kind === "none") return;
    const address = requestClientAddress(state.request);
    assertAddressMayAuthenticate(address);
    try {
      state.principal = await AUTHENTICATORS[kind](state.request);
    } catch (error) {
      if (error instanceof ApiError && error.code === "invalid_api_key") await recordAuthFailure(address);
      throw error;
    }
  },
};

/**
 * Counts the request against the key's limit, in the same statement that checks the key is still what
 * authentication found (possibly from this instance's cache); a key that changed meanwhile is read again first, so
 * a revoked key or a suspended application is refused on its first request after the change (lib/auth).
 */
const keyLimit: Step = {
  name: "key limit",
  run: async (state) => {
    const principal = state.principal;
    if (principal?.kind !== "key") return;
    const admitted = await admitKeyRequest(principal, state.request.headers.get("authorization"));
    state.principal = admitted.auth;
    Object.assign(state.headers, admitted.headers);
  },
};

const body: Step = {
  name: "body",
  run: async (state) => {
    if (state.declaration.body) state.rawBody = await readJsonBody(state.request);
  },
};

const parse: Step = {
  name: "parsing",
  run: (state) => {
    const { params, query, body: bodySchema } = state.declaration;
    state.parsed = {
      params: params ? parseOrThrow(params, flattenParams(state.rawParams), "path") : undefined,
      query: query ? parseOrThrow(query, Object.fromEntries(state.url.searchParams), "query") : undefined,
      body: bodySchema ? parseOrThrow(bodySchema, state.rawBody, "body") : undefined,
    };
  },
};

const idempotency: Step = {
  name: "idempotency",
  run: (state) => {
    if (!state.profile.idempotencyKeys) return;
    // A malformed key is refused on any operation, so a client learns of its mistake before it matters.
    const key = validateIdempotencyKey(state.request.headers.get(HEADER.idempotencyKey));
    if (key && state.declaration.idempotent && state.principal?.kind === "key") state.idempotencyKey = key;
  },
};

const handler: Step = {
  name: "handler",
  run: async (state) => {
    const parsed = state.parsed ?? { params: undefined, query: undefined, body: undefined };
    const invoke = () =>
      state.handler({
        request: state.request,
        url: state.url,
        requestId: state.requestId,
        auth: state.principal,
        ...parsed,
        setHeader: (name: string, value: string) => {
          state.headers[name] = value;
        },
      } as never);

    const principal = state.principal;
    if (!state.idempotencyKey || principal?.kind !== "key") {
      state.response = toResponse(await invoke(), state);
      return;
    }
    const outcome = await withIdempotency(
      { applicationId: principal.application.id, environment: principal.environment, key: state.idempotencyKey },
      // The request's own path, not the operation's template: the same key on another resource is another request.
      requestFingerprint(state.request.method, state.url.pathname, state.rawBody),
      async () => {
        const result = await invoke();
        if (result instanceof Response) throw new Error("idempotent handlers return JSON results");
        return { status: result.status ?? 200, body: result.body };
      },
    );
    state.response = toResponse(
      { status: outcome.status, body: outcome.body, headers: outcome.replayed ? { [HEADER.idempotentReplayed]: "true" } : {} },
      state,
    );
  },
};

/** The steps every request runs, in this order; error mapping and the log follow in `runPipeline`. */
export const PIPELINE: readonly Step[] = [requestId, versionHeader, addressLimit, authenticate, keyLimit, body, parse, idempotency, handler];

function toResponse(result: HandlerResult, state: PipelineState): Response {
  if (result instanceof Response) {
    for (const [name, value] of Object.entries(state.headers)) result.headers.set(name, value);
    return result;
  }
  const contentType = state.declaration.success?.contentType;
  return Response.json(result.body, {
    status: result.status ?? 200,
    headers: {
      ...state.headers,
      "Cache-Control": state.declaration.cache ?? state.profile.defaultCache,
      ...(contentType ? { "Content-Type": contentType } : {}),
      ...result.headers,
    },
  });
}

/** Next.js gives catch-all segments as arrays; operations see every path parameter as one string. */
function flattenParams(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) params[name] = Array.isArray(value) ? value.join("/") : value;
  }
  return params;
}
