import {
  admitAgentRequest,
  admitKeyRequest,
  assertCredentialCovers,
  authenticateAgent,
  bearerToken,
  confirmAuthority,
  invalidAgentToken,
  isAgentToken,
  type AgentAuth,
} from "@/lib/auth";
import {
  addressPrefix,
  ApiError,
  assertStorable,
  fetchRequest,
  HEADER,
  JsonAnswer,
  type IncomingRequest,
  type Answer,
  parseOrThrow,
  readJsonBody,
  requestClientAddress,
  serializeJson,
  requestFingerprint,
  validateIdempotencyKey,
  withIdempotency,
} from "@/lib/http";
import { withAuditAddress } from "@/lib/audit";
import { isCategory } from "@/lib/records";
import { assertAddressMayAuthenticate, recordAuthFailure } from "./auth-failure-limit";
import { AUTHENTICATORS, type AuthKind, type Principals } from "./authenticators";
import { operationName, type PipelineDeclaration } from "./operation";
import { corsHeaders, type Profile } from "./profiles";
import type { Handler, HandlerResult } from "./handler";

/** What the steps read and fill in as a request moves through the pipeline. */
export type PipelineState = {
  /** Read for its method, URL and headers; its fetch Request is made only for a body or a handler that reads it. */
  request: IncomingRequest;
  url: URL;
  profile: Profile;
  declaration: PipelineDeclaration;
  handler: Handler<AuthKind, unknown, unknown, unknown>;
  rawParams: Record<string, string | string[] | undefined>;
  requestId: string;
  /** Put on the answer whatever it is: success, the profile's error, or a 429. */
  headers: Record<string, string>;
  principal: Principals[AuthKind];
  /** Set when a delegated credential made the request; `principal` is then the parent key authority it reads under. */
  agent?: AgentAuth;
  rawBody?: Record<string, unknown>;
  parsed?: { params: unknown; query: unknown; body: unknown };
  idempotencyKey?: string;
  /** The subject a handler named for the request log (HandlerArgs.logSubject); a holder of its own, so the handler's args never point to the state. */
  logged: { subject: string | null };
};

/**
 * One step of the pipeline. The handler's step returns the answer instead of leaving it on the state: a request's
 * state can outlive the request in V8's old generation, and an answer it pointed to was then copied and promoted by
 * every young collection until the next full one (docs/operations.md, "Memory a request leaves behind").
 */
export type Step = { name: string; run: (state: PipelineState) => void | Answer | Promise<void | Answer> };

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
 * Resolves the caller. A request whose key authenticates is served (under its own key's limit) whatever its
 * address did. A missing or bad key is refused with 429 while its address (its /64 for IPv6) has spent its failed
 * authentications, and otherwise counts against the address, so guessing keys from one network stops after a
 * handful of 401s: during the block a guess gets the same 429 whether it is unknown, revoked or malformed, so it
 * learns nothing a 401 would have told it, and only a key already held gets through. The key is checked first
 * because checking it is what lets a backend behind a shared address (NAT, proxy, function pool) keep working
 * while someone else's typos or guesses block that address.
 */
const authenticate: Step = {
  name: "authentication",
  run: async (state) => {
    const kind = state.declaration.auth;
    if (kind === "none") return;
    try {
      const authorization = state.request.headers.get("authorization");
      const token = kind === "key" && authorization !== null ? bearerToken(authorization) : null;
      if (token !== null && isAgentToken(token)) {
        // A delegated credential is for the REST API only: anywhere else it was issued for another API.
        if (!state.profile.delegatedCredentials) throw invalidAgentToken();
        state.agent = await authenticateAgent(token);
        state.principal = state.agent.key;
      } else {
        state.principal = await AUTHENTICATORS[kind](state.request);
      }
    } catch (error) {
      if (error instanceof ApiError && (error.code === "invalid_api_key" || error.code === "missing_api_key" || error.code === "invalid_agent_token")) {
        const address = addressPrefix(requestClientAddress(state.request));
        assertAddressMayAuthenticate(address);
        if (error.code !== "missing_api_key") await recordAuthFailure(address);
      }
      throw error;
    }
  },
};

/**
 * A delegated credential reaches only the reads it was granted, for its subject, receipt and categories, and counts
 * against its application's shared credential limit (its parent key's own limit is left to the key's requests).
 */
const credentialScope: Step = {
  name: "credential scope",
  run: async (state) => {
    const agent = state.agent;
    if (!agent) return;
    const operation = state.declaration.agentOperation;
    if (!operation) throw new ApiError("operation_forbidden", `A delegated credential cannot call ${operationName(state.declaration)}; use the application key.`);
    Object.assign(state.headers, await admitAgentRequest(agent));
    const { receiptId, category } = state.rawParams;
    const subject = state.declaration.subjectParam ? state.rawParams[state.declaration.subjectParam] : undefined;
    const categories = state.url.searchParams.get("categories");
    assertCredentialCovers(agent, operation, {
      subject: typeof subject === "string" ? subject : undefined,
      receiptId: typeof receiptId === "string" ? receiptId : undefined,
      categories: [typeof category === "string" ? category : "", ...(categories ?? "").split(",")].map((name) => name.trim()).filter(isCategory),
    });
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
    if (principal?.kind !== "key" || state.agent) return;
    const admitted = await admitKeyRequest(principal, state.request.headers.get("authorization"));
    state.principal = admitted.auth;
    Object.assign(state.headers, admitted.headers);
  },
};

const body: Step = {
  name: "body",
  run: async (state) => {
    if (state.declaration.body) state.rawBody = await readJsonBody(fetchRequest(state.request));
  },
};

/**
 * Parses the path, query and body with the operation's schemas, then holds what they parsed, which is all the
 * handler is handed, to text PostgreSQL can store (lib/http/storable-text.ts): the one place every operation's
 * fields pass, so no field can forget the check and nothing is read or written with such text.
 */
const parse: Step = {
  name: "parsing",
  run: (state) => {
    const { params, query, body: bodySchema } = state.declaration;
    const parsed = {
      params: params ? parseOrThrow(params, flattenParams(state.rawParams), "path") : undefined,
      query: query ? parseOrThrow(query, Object.fromEntries(state.url.searchParams), "query") : undefined,
      body: bodySchema ? parseOrThrow(bodySchema, state.rawBody, "body") : undefined,
    };
    assertStorable(parsed.params, "path");
    assertStorable(parsed.query, "query");
    assertStorable(parsed.body, "body");
    state.parsed = parsed;
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
    const invoke = () => withAuditAddress(requestClientAddress(state.request), () => state.handler(new OperationArgs(state, parsed) as never));

    const principal = state.principal;
    if (!state.idempotencyKey || principal?.kind !== "key") {
      // A credential's read is answered only if its authority held throughout (403 authority_changed otherwise),
      // refusals included: a read that found the receipt revoked meanwhile answers why, not the refusal it met.
      const result = await Promise.resolve()
        .then(invoke)
        .catch(async (error: unknown) => {
          if (state.agent) await confirmAuthority(state.agent);
          throw error;
        });
      if (state.agent) await confirmAuthority(state.agent);
      return toResponse(result, state);
    }
    const outcome = await withIdempotency(
      { applicationId: principal.application.id, environment: principal.environment, key: state.idempotencyKey },
      // The request's own path, not the operation's template: the same key on another resource is another request.
      requestFingerprint(state.request.method, state.url.pathname, state.rawBody),
      async () => {
        const result = await invoke();
        if (result instanceof Response) throw new Error("idempotent handlers return JSON results");
        return { status: result.status ?? 200, body: result.body, stored: result.replayBody };
      },
    );
    return toResponse({ status: outcome.status, body: outcome.body, headers: outcome.replayed ? { [HEADER.idempotentReplayed]: "true" } : {} }, state);
  },
};

/**
 * What a handler is called with: `request` is made only if the handler reads it, and nothing in it points to the
 * pipeline's whole state (`setHeader` holds only the answer's headers). A handler's arguments could stay reachable
 * after the request for V8's young-generation collections, and while they pointed to the state, every young
 * collection copied and promoted the whole request with them (docs/operations.md, "Memory a request leaves behind").
 */
class OperationArgs {
  readonly url: URL;
  readonly requestId: string;
  readonly auth: PipelineState["principal"];
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
  readonly agentSubject: string | null;
  readonly logSubject: (subjectId: string) => void;
  readonly setHeader: (name: string, value: string) => void;
  private readonly incoming: IncomingRequest;

  constructor(state: PipelineState, parsed: NonNullable<PipelineState["parsed"]>) {
    const headers = state.headers;
    this.url = state.url;
    this.requestId = state.requestId;
    this.auth = state.principal;
    this.params = parsed.params;
    this.query = parsed.query;
    this.body = parsed.body;
    this.agentSubject = state.agent?.subjectId ?? null;
    const logged = state.logged;
    this.logSubject = (subjectId) => {
      logged.subject = subjectId;
    };
    this.setHeader = (name, value) => {
      headers[name] = value;
    };
    this.incoming = state.request;
  }

  get request(): Request {
    return fetchRequest(this.incoming);
  }
}

/** The steps every request runs, in this order; error mapping and the log follow in `runPipeline`. */
export const PIPELINE: readonly Step[] = [requestId, versionHeader, addressLimit, authenticate, keyLimit, credentialScope, body, parse, idempotency, handler];

function toResponse(result: HandlerResult, state: PipelineState): Answer {
  if (result instanceof Response) {
    for (const [name, value] of Object.entries(state.headers)) result.headers.set(name, value);
    return result;
  }
  const contentType = state.declaration.success?.contentType;
  // A body may hold JSON that is already text (stored records, lib/http/json-text.ts), spliced in as it is.
  const headers = Object.assign(
    {},
    state.headers,
    { "Cache-Control": state.declaration.cache ?? state.profile.defaultCache, "Content-Type": contentType ?? "application/json" },
    result.headers,
  );
  return new JsonAnswer(result.status ?? 200, headers, serializeJson(result.body));
}

/** Next.js gives catch-all segments as arrays; operations see every path parameter as one string. */
function flattenParams(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) params[name] = Array.isArray(value) ? value.join("/") : value;
  }
  return params;
}
