import type { FhirResource } from "fhir/r4";
import { CONTEXT_RESOURCE_TYPES, detached } from "@/lib/records";
import { missingContextReferences } from "./context-references";
import { SourceError } from "./source-error";

/** What one `_id` search of a context type answered: its matches, or the status of a refusal (400, 403, 404). */
export type ContextSearchResult = FhirResource[] | { status: number };

/**
 * The `_id` value of one search stays within this many characters (the URL within about 2 KB, which any server
 * takes): twenty of Epic's ~100-character ids, fifty of the synthetic systems' ~40. Each search is a round trip
 * (and, at the server, a token check and a pass over the patient's resources), so a long history's thousand-odd
 * Encounters take a few dozen searches rather than seventy.
 */
const CONTEXT_SEARCH_ID_CHARS = 2_000;
/** And at most this many ids, whatever their length (a server pages by `_count`, asked equal to the ids). */
const IDS_PER_CONTEXT_SEARCH = 100;
/**
 * Context resources one import reads at most; a record whose context was not read keeps the reference's display.
 * Types are admitted whole, in CONTEXT_RESOURCE_TYPES order, while they fit: a type that does not is not read at
 * all, so which records carry context never depends on the order the pages happened to arrive in.
 */
export const MAX_CONTEXT_RESOURCES = 5_000;

/** Whether `id` no longer fits the batch (see CONTEXT_SEARCH_ID_CHARS and IDS_PER_CONTEXT_SEARCH). */
function overflows(batch: readonly string[], chars: number, id: string): boolean {
  // A comma before every id but a batch's first.
  return batch.length > 0 && (chars + 1 + id.length > CONTEXT_SEARCH_ID_CHARS || batch.length === IDS_PER_CONTEXT_SEARCH);
}

type TypeState = {
  /** Ids asked for or about to be, so each is searched once. */
  noted: Set<string>;
  /** The batch being filled, and its `_id` value's length. */
  filling: string[];
  chars: number;
  /** Full batches waiting for the type's first search to say whether the server searches the type by `_id`. */
  waiting: string[][];
  /** `probing` while the type's first search runs, `open` once it answered matches, `closed` once the type is given up. */
  state: "new" | "probing" | "open" | "closed";
  /** What the type's searches found, by id. */
  found: Map<string, FhirResource>;
  unreadReported: boolean;
};

/**
 * Reads the context resources (CONTEXT_RESOURCE_TYPES) that search pages reference, while the searches go on: each
 * page is scanned as it arrives (`note`), and a type's ids are searched by `_id` as soon as a full batch of them is
 * known, so a long history's Encounters are read between its Observation pages rather than after them; `finish`
 * searches what is left and returns what was read. A type's first search runs alone and says whether the server
 * searches the type that way; a type it refuses, or outside the grant, is left out, as is any context read that
 * fails: context only decorates records (a medication's coding, a visit's place), so it never fails the import,
 * except a refused token, which `finish` throws as any read would.
 */
export class ContextReader {
  private readonly types = new Map<string, TypeState>();
  private readonly runnable: { resourceType: string; batch: string[] }[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly unread: { resourceType: string; reason: string }[] = [];
  private fatal: SourceError | null = null;
  private stopped = false;

  constructor(
    private readonly fhirBaseUrl: string,
    private readonly search: (resourceType: string, ids: string[]) => Promise<ContextSearchResult>,
    private readonly searchesAtOnce: number,
  ) {}

  /** Notes the context one page of search results references, and starts the searches of the batches it fills. */
  note(resources: readonly FhirResource[]): void {
    if (this.stopped) return;
    for (const [resourceType, ids] of missingContextReferences(resources, this.fhirBaseUrl)) {
      const type = this.typeState(resourceType);
      for (const id of ids) {
        if (type.noted.has(id)) continue;
        type.noted.add(detached(id));
        // A type past the limit on its own will not be admitted (see MAX_CONTEXT_RESOURCES): no more of it is read.
        if (type.noted.size > MAX_CONTEXT_RESOURCES) this.close(type);
        if (type.state === "closed") continue;
        if (overflows(type.filling, type.chars, id)) this.seal(resourceType);
        type.chars += (type.filling.length === 0 ? 0 : 1) + id.length;
        type.filling.push(id);
      }
    }
    this.startRunnable();
  }

  /**
   * Searches the batches still filling, waits for every search, and returns the context read (each once) of the
   * types admitted (MAX_CONTEXT_RESOURCES), by type then id.
   */
  async finish(): Promise<{ resources: FhirResource[]; unread: { resourceType: string; reason: string }[] }> {
    for (const [resourceType, type] of this.types) if (type.filling.length > 0) this.seal(resourceType);
    this.startRunnable();
    while (this.running.size > 0) await Promise.race(this.running);
    if (this.fatal) throw this.fatal;
    const order = (resourceType: string) => CONTEXT_RESOURCE_TYPES.indexOf(resourceType);
    let budget = MAX_CONTEXT_RESOURCES;
    const resources: FhirResource[] = [];
    for (const [resourceType, type] of [...this.types].sort(([left], [right]) => order(left) - order(right))) {
      if (type.noted.size > budget) {
        this.reportUnread(type, resourceType, `more than ${MAX_CONTEXT_RESOURCES} context resources in one import`);
        continue;
      }
      budget -= type.noted.size;
      resources.push(...[...type.found.values()].sort((left, right) => (left.id! < right.id! ? -1 : 1)));
    }
    return { resources, unread: this.unread };
  }

  /** The searches fail: no further context search starts, and those under way are waited for (never left unhandled). */
  async abandon(): Promise<void> {
    this.stopped = true;
    this.runnable.length = 0;
    while (this.running.size > 0) await Promise.race(this.running);
  }

  private typeState(resourceType: string): TypeState {
    let type = this.types.get(resourceType);
    if (!type) {
      type = { noted: new Set(), filling: [], chars: 0, waiting: [], state: "new", found: new Map(), unreadReported: false };
      this.types.set(resourceType, type);
    }
    return type;
  }

  private seal(resourceType: string): void {
    const type = this.types.get(resourceType)!;
    const batch = type.filling;
    type.filling = [];
    type.chars = 0;
    if (type.state === "probing") type.waiting.push(batch);
    else if (type.state !== "closed") {
      if (type.state === "new") type.state = "probing";
      this.runnable.push({ resourceType, batch });
    }
  }

  private giveUp(resourceType: string, reason: string): void {
    const type = this.types.get(resourceType)!;
    if (type.state === "closed") return;
    this.close(type);
    this.reportUnread(type, resourceType, reason);
  }

  /** No further search of the type starts. */
  private close(type: TypeState): void {
    type.state = "closed";
    type.waiting = [];
    type.filling = [];
  }

  /** The first reason a type's context was not all read (once per type). */
  private reportUnread(type: TypeState, resourceType: string, reason: string): void {
    if (type.unreadReported) return;
    type.unreadReported = true;
    this.unread.push({ resourceType, reason });
  }

  private startRunnable(): void {
    while (!this.stopped && this.running.size < this.searchesAtOnce && this.runnable.length > 0) {
      const next = this.runnable.shift()!;
      if (this.types.get(next.resourceType)!.state === "closed") continue;
      const run: Promise<void> = this.run(next.resourceType, next.batch).finally(() => {
        this.running.delete(run);
        this.startRunnable();
      });
      this.running.add(run);
    }
  }

  private async run(resourceType: string, batch: string[]): Promise<void> {
    const type = this.types.get(resourceType)!;
    let result: ContextSearchResult;
    try {
      result = await this.search(resourceType, batch);
    } catch (error) {
      if (error instanceof SourceError && error.code === "reauthorization_required") {
        this.fatal ??= error;
        this.stopped = true;
        this.runnable.length = 0;
      } else this.giveUp(resourceType, error instanceof Error ? error.message : String(error));
      return;
    }
    if (!Array.isArray(result)) {
      this.giveUp(resourceType, `the ${resourceType} search by _id answered ${result.status}`);
      return;
    }
    const wanted = new Set(batch);
    for (const resource of result) if (resource.id !== undefined && wanted.has(resource.id)) type.found.set(resource.id, resource);
    if (type.state === "probing") {
      type.state = "open";
      for (const waiting of type.waiting) this.runnable.push({ resourceType, batch: waiting });
      type.waiting = [];
    }
  }
}
