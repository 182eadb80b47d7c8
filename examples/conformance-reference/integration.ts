// A reference Chartkey integration that passes every conformance check: a Connect session, record reads that honour
// Retry-After, a stop on revocation, a Standard Webhooks receiver, and the change feed from the saved changeCursor.
// It uses only fetch, node:http and the public `standardwebhooks` package, as any server-side integration can.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type IntegrationOptions = {
  /** The API base, e.g. http://localhost:3000/api/v1. */
  apiBase: string;
  /** A sandbox key; for a conformance run, its run_key. */
  apiKey: string;
  /** The application's webhook signing secret (whsec_...). */
  signingSecret: string;
  /** Where the webhook receiver listens; 0 picks a free port. */
  port?: number;
  /** The categories the Connect session asks for. */
  categories?: string[];
};

export type WebhookEvent = { id: string; type: string; timestamp: string; environment: string; data: Record<string, unknown> };
type Page = { data: Array<{ id?: string; recordId?: string; record?: unknown }>; hasMore: boolean; nextCursor: string | null; meta?: { changeCursor: string } };

/** Thrown to stop work on a subject whose consent ended. */
class SubjectGone extends Error {}

/**
 * What a production integration keeps per subject: the categories its consent shares, its records by category, the
 * saved change cursor of each category, and whether its consent ended (then nothing of it is read or kept).
 */
type SubjectState = { granted: Set<string>; records: Map<string, Map<string, unknown>>; cursors: Map<string, string>; revoked: boolean; work: Promise<void> };

export class ReferenceIntegration {
  readonly options: Required<IntegrationOptions>;
  private readonly verifier: Webhook;
  private readonly seenWebhookIds = new Set<string>();
  private readonly subjects = new Map<string, SubjectState>();
  private server: http.Server | null = null;
  /** Errors of background work, for logs and tests. */
  readonly errors: string[] = [];

  constructor(options: IntegrationOptions) {
    this.options = { port: 0, categories: ["medications", "allergies", "labs", "conditions"], ...options };
    this.verifier = new Webhook(options.signingSecret);
  }

  /** Starts the webhook receiver; returns its URL (set it as the application's webhook URL). */
  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const { status, text } = this.receive(Buffer.concat(chunks).toString("utf8"), request.headers);
        response.writeHead(status, { "content-type": "text/plain" }).end(text);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.options.port, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await Promise.all([...this.subjects.values()].map((state) => state.work));
  }

  /** Creates a Connect session; send the patient to its connectUrl (a conformance run completes it itself). */
  async connect(): Promise<{ id: string; connectUrl: string }> {
    const response = await this.api("/connect/sessions", { method: "POST", body: JSON.stringify({ categories: this.options.categories }) });
    return (await response.json()) as { id: string; connectUrl: string };
  }

  /** The records kept for a subject, by category (empty once its consent ended). */
  recordsOf(subject: string): Map<string, Map<string, unknown>> {
    return this.subjects.get(subject)?.records ?? new Map();
  }

  // ---- Webhooks -------------------------------------------------------------------------------------------

  /**
   * Verifies, deduplicates and acknowledges at once; the work runs after the answer. A delivery that fails
   * verification is 400. A webhook-id seen before is a retry (the sender missed the answer): 200 again, not processed
   * twice. Event types this integration does not handle are acknowledged too, so new kinds are never lost.
   */
  protected receive(body: string, headers: http.IncomingHttpHeaders): { status: number; text: string } {
    let event: WebhookEvent;
    try {
      event = this.verify(body, headers);
    } catch {
      return { status: 400, text: "signature verification failed" };
    }
    const webhookId = String(headers["webhook-id"]);
    if (this.seenWebhookIds.has(webhookId)) return this.duplicate();
    this.seenWebhookIds.add(webhookId);
    return this.handle(event);
  }

  /** Standard Webhooks verification: signature over id, timestamp and the raw body, with the 5-minute tolerance. */
  protected verify(body: string, headers: http.IncomingHttpHeaders): WebhookEvent {
    return this.verifier.verify(body, headers as Record<string, string>) as WebhookEvent;
  }

  protected duplicate(): { status: number; text: string } {
    return { status: 200, text: "already processed" };
  }

  protected handle(event: WebhookEvent): { status: number; text: string } {
    const subject = typeof event.data.subject === "string" ? event.data.subject : null;
    const categories = Array.isArray(event.data.categories) ? (event.data.categories as string[]) : this.options.categories;
    if (subject && event.type === "consent.granted") this.enqueue(subject, () => this.initialSync(subject, categories));
    else if (subject && event.type === "records.updated") this.enqueue(subject, () => this.syncChanges(subject, categories));
    else if (subject && (event.type === "consent.revoked" || event.type === "consent.expired")) this.onConsentEnded(subject);
    return { status: 200, text: "ok" };
  }

  /** Consent ended: forget the subject's records and cursors, and never read it again. */
  protected onConsentEnded(subject: string): void {
    const state = this.state(subject);
    state.revoked = true;
    state.records.clear();
    state.cursors.clear();
  }

  // ---- Reading ---------------------------------------------------------------------------------------------

  /** Every category page by page; the first page's changeCursor is saved, so the feed replays what changed since. */
  protected async initialSync(subject: string, categories: string[]): Promise<void> {
    for (const category of categories) this.state(subject).granted.add(category);
    for (const category of categories) await this.readCategory(subject, category);
  }

  protected async readCategory(subject: string, category: string): Promise<void> {
    const state = this.state(subject);
    const records = new Map<string, unknown>();
    let cursor: string | null = null;
    let changeCursor: string | null = null;
    do {
      const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await this.read<Page>(subject, `/users/${subject}/records/${category}${query}`);
      if (!page) return; // not shared (outside the consent): nothing to keep
      changeCursor ??= page.meta?.changeCursor ?? null;
      for (const record of page.data) records.set(String(record.id), record);
      cursor = page.hasMore ? page.nextCursor : null;
    } while (cursor);
    state.records.set(category, records);
    if (changeCursor) state.cursors.set(category, changeCursor);
  }

  /**
   * records.updated: the change feed from each shared category's saved cursor, applied in order; the cursor moves
   * on. Categories the consent does not share are not read.
   */
  protected async syncChanges(subject: string, categories: string[]): Promise<void> {
    const state = this.state(subject);
    for (const category of categories.filter((name) => state.granted.size === 0 || state.granted.has(name))) {
      const saved = state.cursors.get(category);
      if (!saved) {
        await this.readCategory(subject, category); // never read yet: its first full read
        continue;
      }
      let cursor: string = saved;
      for (;;) {
        const page: Page | null = await this.read<Page>(subject, `/users/${subject}/records/${category}/changes?limit=100&cursor=${encodeURIComponent(cursor)}`);
        if (!page) return;
        const records = state.records.get(category) ?? new Map<string, unknown>();
        for (const change of page.data) {
          if (change.record === null) records.delete(String(change.recordId));
          else records.set(String(change.recordId), change.record);
        }
        state.records.set(category, records);
        if (page.nextCursor) cursor = page.nextCursor;
        state.cursors.set(category, cursor);
        if (!page.hasMore) break;
      }
    }
  }

  /**
   * One record read: refused before sending once the subject's consent ended; a 404 means it ended (stop); a 403 is
   * a category outside the consent (skip it). Other errors throw.
   */
  protected async read<T>(subject: string, path: string): Promise<T | null> {
    if (this.state(subject).revoked) throw new SubjectGone(subject);
    const response = await this.api(path);
    if (response.status === 404) {
      this.onConsentEnded(subject);
      throw new SubjectGone(subject);
    }
    if (response.status === 403) return null;
    return (await response.json()) as T;
  }

  /** One API call; a 429 is retried after its Retry-After, up to five times. */
  protected async api(path: string, init: RequestInit = {}): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${this.options.apiBase}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${this.options.apiKey}`, "content-type": "application/json", ...init.headers },
      });
      if (response.status !== 429 || attempt >= 5) {
        if (!response.ok && response.status !== 404 && response.status !== 403) throw new Error(`${init.method ?? "GET"} ${path}: ${response.status} ${await response.text()}`);
        return response;
      }
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs(Number(response.headers.get("retry-after") ?? "1"))));
    }
  }

  /** Retry-After is in seconds; waiting a little longer covers the clocks between here and the server. */
  protected retryDelayMs(retryAfterSeconds: number): number {
    return retryAfterSeconds * 1000 + 50;
  }

  // ---- Per-subject work, one task at a time ------------------------------------------------------------------

  protected state(subject: string): SubjectState {
    let state = this.subjects.get(subject);
    if (!state) {
      state = { granted: new Set(), records: new Map(), cursors: new Map(), revoked: false, work: Promise.resolve() };
      this.subjects.set(subject, state);
    }
    return state;
  }

  protected enqueue(subject: string, task: () => Promise<void>): void {
    const state = this.state(subject);
    state.work = state.work.then(task).catch((error: unknown) => {
      if (!(error instanceof SubjectGone)) this.errors.push(error instanceof Error ? error.message : String(error));
    });
  }
}
