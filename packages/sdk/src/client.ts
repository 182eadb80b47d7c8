import { randomUUID } from "node:crypto";
import createClient, { type Client } from "openapi-fetch";
import { toChartkeyError } from "./errors.js";
import { FhirReads } from "./fhir.js";
import { retryingFetch } from "./retry.js";
import type { operations, paths } from "./schema.js";
import { syncCategory, type SyncHandlers, type SyncResult } from "./sync.js";
import type { Category, CategoryRecordsPage, ConnectSession, RecordChangePage, Schemas, User } from "./types.js";

export type ChartkeyOptions = {
  /** A sandbox (ck_test_) or live (ck_live_) key. Keep it on your server. */
  apiKey: string;
  /** The API base including /api/v1; default http://localhost:3000/api/v1 (a local `npm start`). */
  baseUrl?: string;
  /** Retries of a 429 or 503 (and of a read's 500, 502 or 504) after its Retry-After or a backoff; default 3, 0 turns retrying off. */
  maxRetries?: number;
  /** The longest Retry-After worth waiting for in-process (ms); a longer one is thrown as the 429. Default 60 s. */
  maxRetryDelayMs?: number;
  /** The fetch to send with (a proxy agent, a test recorder); default the global fetch. */
  fetch?: typeof fetch;
};

type Answer = { data?: unknown; error?: unknown; response: Response };

/**
 * The Chartkey API client. `api` is the typed openapi-fetch client over every operation of the OpenAPI document
 * (paths, parameters, bodies and answers checked by TypeScript); the methods beside it are the calls most
 * integrations make, answering the data or throwing a ChartkeyError. Every request retries 429 and 503 (a read also 500, 502 and 504) after Retry-After or a backoff.
 */
export class Chartkey {
  readonly api: Client<paths>;
  /** Typed FHIR R4 reads (`/fhir`): read, patient, search (following next links), everything. */
  readonly fhir: FhirReads;

  constructor(options: ChartkeyOptions) {
    if (!options.apiKey) throw new TypeError("Chartkey: apiKey is required");
    const send = retryingFetch(options.fetch ?? globalThis.fetch, {
      maxRetries: options.maxRetries ?? 3,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
    });
    this.api = createClient<paths>({
      baseUrl: (options.baseUrl ?? "http://localhost:3000/api/v1").replace(/\/$/, ""),
      headers: { Authorization: `Bearer ${options.apiKey}` },
      fetch: send,
    });
    this.fhir = new FhirReads(this.api, data);
  }

  /** The application and environment the key resolves to. */
  app(): Promise<Schemas["Application"]> {
    return data(this.api.GET("/app"));
  }

  /**
   * Creates a Connect session; send the patient to its connectUrl. An Idempotency-Key is generated when you pass
   * none, and every retry sends the same one, so a retried create never makes a second session. Pass your own key
   * (e.g. your user's id plus an attempt number) to make a create safe across process restarts too.
   */
  createConnectSession(body: Schemas["CreateConnectSession"], options: { idempotencyKey?: string } = {}): Promise<ConnectSession> {
    return data(this.api.POST("/connect/sessions", { body, params: { header: { "Idempotency-Key": options.idempotencyKey ?? randomUUID() } } }));
  }

  getConnectSession(sessionId: string): Promise<ConnectSession> {
    return data(this.api.GET("/connect/sessions/{sessionId}", { params: { path: { sessionId } } }));
  }

  cancelConnectSession(sessionId: string): Promise<ConnectSession> {
    return data(this.api.POST("/connect/sessions/{sessionId}/cancel", { params: { path: { sessionId } } }));
  }

  /** Every subject with active share consent, page after page. */
  async *users(options: { pageSize?: number } = {}): AsyncGenerator<User> {
    let cursor: string | undefined;
    do {
      const page = await data<Schemas["UserList"]>(this.api.GET("/users", { params: { query: { limit: String(options.pageSize ?? 100), ...(cursor ? { cursor } : {}) } } }));
      yield* page.data;
      cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
    } while (cursor);
  }

  /** A subject's consent-filtered normalized snapshot, every authorized category or the ones named. */
  getRecords(subject: string, options: { categories?: Category[] } = {}): Promise<operations["getHealthRecord"]["responses"][200]["content"]["application/json"]> {
    const query = options.categories ? { categories: options.categories.join(",") } : {};
    return data(this.api.GET("/users/{subject}/records", { params: { path: { subject }, query } }));
  }

  /** One page of a category's records; its meta.changeCursor starts the category's change feed. */
  listRecords(subject: string, category: Category, options: { cursor?: string; limit?: number } = {}): Promise<CategoryRecordsPage> {
    return data(this.api.GET("/users/{subject}/records/{category}", { params: { path: { subject, category }, query: pageQuery(options) } }));
  }

  /** One page of a category's changes after `cursor` (a changeCursor, then each nextCursor), in sequence order. */
  listRecordChanges(subject: string, category: Category, options: { cursor: string; limit?: number }): Promise<RecordChangePage> {
    return data(this.api.GET("/users/{subject}/records/{category}/changes", { params: { path: { subject, category }, query: pageQuery(options) } }));
  }

  getConsent(receiptId: string): Promise<Schemas["ConsentReceipt"]> {
    return data(this.api.GET("/consents/{receiptId}", { params: { path: { receiptId } } }));
  }

  /** Sandbox keys: completes a pending session as a synthetic patient of `scenario`, without a hospital sign-in. */
  simulateConnectSession(sessionId: string, scenario: string): Promise<ConnectSession> {
    return data(this.api.POST("/connect/sessions/{sessionId}/simulate", { params: { path: { sessionId } }, body: { scenario } }));
  }

  /** Sandbox keys: drives a synthetic user (records.advance, consent.revoke, consent.expire, source.fail). */
  sandboxEvent(subject: string, body: Schemas["SandboxEvent"]): Promise<Schemas["SandboxEventResult"]> {
    return data(this.api.POST("/sandbox/subjects/{subject}/events", { params: { path: { subject } }, body }));
  }

  /**
   * Brings a local copy of one category up to date. Without a saved cursor: a full read, page by page (each record
   * to `upsert`), then the change feed from the first page's changeCursor (what changed while paging). With one: only
   * the change feed, applied in sequence order: an upsert with its record to `upsert`, a delete (or an upsert whose
   * record was deleted since) to `remove`. `saveCursor` is called after each applied page; persist it with your
   * records and pass it back next time. Answers the cursor to resume from.
   */
  syncCategory(subject: string, category: Category, handlers: SyncHandlers & { cursor?: string | null }): Promise<SyncResult> {
    return syncCategory(this, subject, category, handlers);
  }
}

/**
 * The data of an answer of the typed `api` client, or its error thrown as a ChartkeyError:
 * `const config = await unwrap(chartkey.api.GET("/tefca/config"));`.
 */
export async function unwrap<A extends Answer>(answer: Promise<A>): Promise<NonNullable<A["data"]>> {
  return data<NonNullable<A["data"]>>(answer);
}

function pageQuery(options: { cursor?: string; limit?: number }): { limit: string; cursor?: string } {
  return { limit: String(options.limit ?? 100), ...(options.cursor ? { cursor: options.cursor } : {}) };
}

/**
 * The answer's data as the document's schema types it, or the API's error thrown as a ChartkeyError. (openapi-fetch's
 * own answer type drops properties whose schema is only `null`, such as a demographics record's `code`, so the
 * methods state their types from the generated schema instead.)
 */
export async function data<T>(answer: Promise<Answer>): Promise<T> {
  const { data: body, error, response } = await answer;
  if (error !== undefined || !response.ok) throw toChartkeyError(response, error);
  return body as T;
}
