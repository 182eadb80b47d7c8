// A reference Chartkey integration that passes every conformance check: a Connect session, record reads that honour
// Retry-After, a stop on revocation, a Standard Webhooks receiver, and the change feed from the saved changeCursor.
// It uses @chartkey/sdk (retries, the change feed, webhook verification) and node:http, as any server-side
// integration can.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Chartkey, isChartkeyError, verifyWebhook, type Category, type HealthRecord, type WebhookEvent } from "@chartkey/sdk";

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
  /**
   * Also poll, every this many milliseconds, as an integration that does not rely on webhooks alone: the Connect
   * session until it completes (then the initial sync), then each tick one request: the consent receipt (one-time
   * sync) or the next shared category's change feed (continuous sync). 0 (the default) relies on webhooks only.
   */
  pollIntervalMs?: number;
  /** The application's sync mode, which decides what a poll reads. */
  syncMode?: "one-time" | "continuous";
};

export type { WebhookEvent };

/** One poll: it does its request and returns the next poll, or null when polling is over. */
type PollTick = () => Promise<PollTick | null>;

/** Thrown to stop work on a subject whose consent ended. */
class SubjectGone extends Error {}

/**
 * What a production integration keeps per subject: the categories its consent shares, its records by category, the
 * saved change cursor of each category, and whether its consent ended (then nothing of it is read or kept).
 */
type SubjectState = {
  granted: Set<string>;
  records: Map<string, Map<string, unknown>>;
  cursors: Map<string, string>;
  revoked: boolean;
  /** The initial sync was queued (by consent.granted or by a poll that saw the session complete): it runs once. */
  initialQueued: boolean;
  work: Promise<void>;
};

export class ReferenceIntegration {
  readonly options: Required<IntegrationOptions>;
  protected readonly chartkey: Chartkey;
  private readonly seenWebhookIds = new Set<string>();
  private readonly subjects = new Map<string, SubjectState>();
  private server: http.Server | null = null;
  private polling: NodeJS.Timeout | null = null;
  /** Errors of background work, for logs and tests. */
  readonly errors: string[] = [];

  constructor(options: IntegrationOptions) {
    this.options = { port: 0, categories: ["medications", "allergies", "labs", "conditions"], pollIntervalMs: 0, syncMode: "one-time", ...options };
    this.chartkey = this.client();
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
    if (this.polling) clearTimeout(this.polling);
    this.polling = null;
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await Promise.all([...this.subjects.values()].map((state) => state.work));
  }

  /** Creates a Connect session; send the patient to its connectUrl (a conformance run completes it itself). */
  async connect(): Promise<{ id: string; connectUrl: string }> {
    const session = await this.chartkey.createConnectSession({ categories: this.options.categories as Category[] });
    if (this.options.pollIntervalMs > 0) this.schedulePoll(() => this.pollSession(session.id));
    return session;
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
    return verifyWebhook(body, headers, this.options.signingSecret);
  }

  protected duplicate(): { status: number; text: string } {
    return { status: 200, text: "already processed" };
  }

  protected handle(event: WebhookEvent): { status: number; text: string } {
    const subject = typeof event.data.subject === "string" ? event.data.subject : null;
    const categories = Array.isArray(event.data.categories) ? (event.data.categories as string[]) : this.options.categories;
    if (subject && event.type === "consent.granted") this.queueInitialSync(subject, categories);
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

  // ---- Polling ---------------------------------------------------------------------------------------------

  private schedulePoll(tick: PollTick): void {
    this.polling = setTimeout(() => {
      void tick().then(
        (next) => {
          if (next && this.polling) this.schedulePoll(next);
        },
        (error: unknown) => this.errors.push(error instanceof Error ? error.message : String(error)),
      );
    }, this.options.pollIntervalMs);
  }

  /** Polls the session until it completes, then syncs the subject (once, whoever asks first) and polls it. */
  private async pollSession(sessionId: string): Promise<PollTick | null> {
    const session = await this.chartkey.getConnectSession(sessionId);
    if (session.status !== "completed" || !session.subject) return session.status === "pending" ? () => this.pollSession(sessionId) : null;
    const subject = session.subject;
    this.queueInitialSync(subject, session.grantedCategories ?? this.options.categories);
    let turn = 0;
    const pollSubject: PollTick = async () => {
      const state = this.state(subject);
      if (state.revoked) return null;
      if (this.options.syncMode === "one-time" || !session.receiptId) {
        if (session.receiptId) await this.pollReceipt(subject, session.receiptId);
      } else {
        const withCursor = [...state.cursors.keys()];
        const category = withCursor[turn++ % Math.max(withCursor.length, 1)];
        if (category) await this.whenIdle(subject, () => this.sync(subject, category, state.cursors.get(category) ?? null));
      }
      return pollSubject;
    };
    return pollSubject;
  }

  /** One-time sync: the receipt says when consent ended. */
  protected async pollReceipt(subject: string, receiptId: string): Promise<void> {
    try {
      const receipt = await this.chartkey.getConsent(receiptId);
      if (receipt.status !== "active") this.onConsentEnded(subject);
    } catch (error) {
      if (isChartkeyError(error) && error.status === 404) this.onConsentEnded(subject);
      else throw error;
    }
  }

  /** Runs a poll's read after the subject's queued work, unless a poll of it is still waiting there. */
  private whenIdle(subject: string, task: () => Promise<void>): Promise<void> {
    const state = this.state(subject);
    if (this.pollQueued.has(subject)) return Promise.resolve();
    this.pollQueued.add(subject);
    this.enqueue(subject, async () => {
      this.pollQueued.delete(subject);
      await task();
    });
    return state.work;
  }
  private readonly pollQueued = new Set<string>();

  // ---- Reading ---------------------------------------------------------------------------------------------

  /** The initial sync, queued once per subject. */
  protected queueInitialSync(subject: string, categories: string[]): void {
    const state = this.state(subject);
    if (state.initialQueued) return;
    state.initialQueued = true;
    this.enqueue(subject, () => this.initialSync(subject, categories));
  }

  /** Every category in full; syncCategory saves the first page's changeCursor, so the feed replays what changed since. */
  protected async initialSync(subject: string, categories: string[]): Promise<void> {
    for (const category of categories) this.state(subject).granted.add(category);
    for (const category of categories) await this.sync(subject, category, null);
  }

  /**
   * records.updated: the change feed from each shared category's saved cursor, applied in order; the cursor moves
   * on. A category never read yet gets its first full read. Categories the consent does not share are not read.
   */
  protected async syncChanges(subject: string, categories: string[]): Promise<void> {
    const state = this.state(subject);
    for (const category of categories.filter((name) => state.granted.size === 0 || state.granted.has(name))) {
      await this.sync(subject, category, state.cursors.get(category) ?? null);
    }
  }

  /**
   * One category brought up to date with the SDK. Work on a subject whose consent ended stops before the next
   * request; a 404 means it ended (stop and forget); a 403 is a category outside the consent (skip it).
   */
  protected async sync(subject: string, category: string, cursor: string | null): Promise<void> {
    const state = this.state(subject);
    const live = () => {
      if (state.revoked) throw new SubjectGone(subject);
    };
    live();
    const records = cursor ? (state.records.get(category) ?? new Map<string, unknown>()) : new Map<string, unknown>();
    try {
      await this.chartkey.syncCategory(subject, category as Category, {
        cursor,
        upsert: (recordId: string, record: HealthRecord) => void (live(), records.set(recordId, record)),
        remove: (recordId: string) => void (live(), records.delete(recordId)),
        saveCursor: (next: string) => {
          live();
          state.records.set(category, records);
          state.cursors.set(category, next);
        },
      });
    } catch (error) {
      if (isChartkeyError(error) && error.status === 404) {
        this.onConsentEnded(subject);
        throw new SubjectGone(subject);
      }
      if (isChartkeyError(error) && error.status === 403) return;
      throw error;
    }
  }

  /** The API client: every 429 is retried after its Retry-After (up to five times), creates carry an Idempotency-Key. */
  protected client(): Chartkey {
    return new Chartkey({ apiKey: this.options.apiKey, baseUrl: this.options.apiBase, maxRetries: 5 });
  }

  // ---- Per-subject work, one task at a time ------------------------------------------------------------------

  protected state(subject: string): SubjectState {
    let state = this.subjects.get(subject);
    if (!state) {
      state = { granted: new Set(), records: new Map(), cursors: new Map(), revoked: false, initialQueued: false, work: Promise.resolve() };
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
