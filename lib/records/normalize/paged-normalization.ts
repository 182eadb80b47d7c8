import { randomUUID } from "node:crypto";
import { stableId } from "@/lib/ids";
import { CATEGORIES, type Category } from "../categories";
import { recordSchemas, type NormalizedRecord, type SourceRef } from "../schemas";
import { canonicalJson } from "../store/content-hash";
import { recordSortAt } from "../store/sort-time";
import type { UncheckedEntry } from "./bundle-entries";
import type { DocumentOrigin } from "./ccda";
import { encounterContext, type EncounterContexts } from "./encounter-context";
import { factKey, type KeyPart } from "./fact-key";
import { detached, string, type Json } from "./read";
import { withReportRecordId } from "./report-links";
import {
  CCDA_PATIENT,
  CONTEXT_REASON,
  contentDigest,
  NORMALIZERS,
  normalizeSafely,
  SERVED_AS_DOCUMENT,
  uniqueFactKeys,
  withDocumentFactsFolded,
} from "./resources";
import { noteKeys, servedAsDocuments } from "./same-note";
import { cleaned, objectEntries, SourceIndex, type CleanedEntry } from "./source-index";
import type { SkippedResource, SourceInfo } from "./types";

/**
 * Where a paged normalization keeps each record it has drafted until the whole source is known: one text per
 * record, appended, then read back by its number (in read order, which only the whole source decides). In memory
 * for a test; an import keeps it in a file.
 */
export interface RecordSpool {
  append(text: string): void;
  read(index: number): string;
  /** Several at once, in the order asked: a file reads them in the order they lie, a few neighbours per read. */
  readMany(indices: readonly number[]): string[];
}

export function memorySpool(): RecordSpool {
  const texts: string[] = [];
  return { append: (text) => void texts.push(text), read: (index) => texts[index]!, readMany: (indices) => indices.map((index) => texts[index]!) };
}

/** Records read back from the spool per this many (what the write holds of them at once). */
const RECORDS_PER_READ = 500;

/**
 * A fact as a paged normalization hands it to the store: the record as canonical JSON (what content-hash.ts
 * hashes and the store writes), and what the store reads of it without parsing it.
 */
export type SerializedFact = {
  category: Category;
  factKey: string;
  recordId: string;
  json: string;
  sortAt: Date;
  sources: SourceRef[];
  warnings: readonly string[];
};

/**
 * What a paged normalization keeps of each drafted record while the rest of the source is read: what the
 * whole-source steps (notes served as documents, C-CDA facts folded, colliding fact keys, report links) decide
 * by, not the record itself, which waits in the spool. A class, so every one has the same few in-object fields.
 */
class Drafted {
  /** The position of a DiagnosticReport or DocumentReference in the batch (report links name their records), else -1. */
  position = -1;
  /** The position of the report that groups this result, when its record names the report's record. */
  groupedBy: number | undefined = undefined;
  noteKeys: string[] | undefined = undefined;
  warnings: string[] | undefined = undefined;
  /** Why the record breaks its schema (unreachable while readers and schemas agree). */
  invalid: string | undefined = undefined;
  sortAt = 0;
  /** Set in `finish` for a fact whose clinical key collides: its key with the parts uniqueFactKeys added. */
  key: string | undefined = undefined;

  constructor(
    readonly clinicalKey: string,
    readonly resourceType: string,
    readonly resourceId: string | null,
    readonly category: Category,
    /** Its number in the spool, where its contentDigest comes first (uniqueFactKeys asks for it only on a collision). */
    readonly spooled: number,
    readonly origin: DocumentOrigin | undefined,
    /** keyParts was empty (a key with parts added then has no leading separator). */
    readonly noKeyParts: boolean,
  ) {}
}

// Stand-ins for the parts of a record only the whole source decides (written into the spooled JSON and replaced
// when the record is read back): random, so no text a source sends can be taken for one.
const NONCE = randomUUID();
const RECORD_ID = `\u0002${NONCE}:recordId\u0002`;
const REPORT_RECORD_ID = `\u0002${NONCE}:reportRecordId\u0002`;
const SOURCES = `\u0002${NONCE}:sources\u0002`;
const SLOT = /"\\u0002[0-9a-f-]{36}:(?:recordId|reportRecordId|sources)\\u0002"/g;
// A valid id for the schema check of a record whose id is not yet known (record ids are checked by form only).
const PROVISIONAL_ID = "rec_000000000000000000000000";
// Separates a spooled record's text around its stand-ins; canonical JSON escapes every control character.
const SEPARATOR = "\u0001";
/** A spooled record starts with its contentDigest (hex, this long). */
const DIGEST_LENGTH = 16;

/**
 * One source normalized page by page, with what `normalizeResources` gives for the whole source at once: the same
 * facts, skips and context. The pages are read twice, in the same order: `index` each (what every resource needs
 * of the others: source-index.ts), then `normalize` each, which drafts its records into the spool and keeps only
 * what the whole-source steps decide by. `finish` takes those steps; `facts` then reads the records back, complete.
 * What stays in memory is the index (context resources whole, a few fields of each record's resource, the C-CDA
 * documents' resources) and a few hundred bytes per record, never a page of records beyond the one at hand.
 */
export class PagedNormalization {
  private index: SourceIndex | null = new SourceIndex();
  private readonly skipped: SkippedResource[] = [];
  private readonly context: SkippedResource[] = [];
  private drafted: Drafted[] = [];
  private readonly encounters: EncounterContexts = new Map();
  private normalized = 0;
  private finished: Finished | null = null;

  constructor(
    private readonly source: SourceInfo,
    private readonly scope: string,
    private readonly spool: RecordSpool,
  ) {}

  /** First pass: one page, in the source's order. */
  indexPage(page: UncheckedEntry[]): void {
    this.indexed().add(page);
  }

  /** Second pass: the same pages again, in the same order. */
  normalizePage(page: UncheckedEntry[]): void {
    if (this.normalized === 0) this.indexed().completeIndex();
    for (const { resource } of objectEntries(page)) this.normalizeEntry(this.normalized++, cleaned(resource), undefined);
  }

  /** After the second pass: the whole-source steps. Returns the skips and context, as normalizeResources lists them. */
  finish(): { skipped: SkippedResource[]; context: SkippedResource[] } {
    const index = this.indexed();
    if (this.normalized === 0) index.completeIndex();
    if (this.normalized !== index.sourceEntries) throw new Error("the pages normalized are not the pages indexed");
    index.derived.forEach(({ entry, origin }, offset) => this.normalizeEntry(index.sourceEntries + offset, entry, origin));
    // As normalizeEntries lists them: what the batch held that was no resource first.
    this.skipped.unshift(...index.nestedSkips, ...index.nonObjectSkips);
    // Every resource is drafted: what the records read of other resources is no longer needed.
    this.index = null;
    this.encounters.clear();

    const served = servedAsDocuments(this.drafted, (candidate) => candidate.noteKeys ?? []);
    for (const { resourceType, resourceId } of served.keys()) this.skipped.push({ resourceType, resourceId, reason: SERVED_AS_DOCUMENT });
    const { candidates, alsoFrom } = withDocumentFactsFolded(this.drafted.filter((candidate) => !served.has(candidate)));
    const collides = new Set<string>();
    const seen = new Set<string>();
    for (const { clinicalKey } of candidates) (seen.has(clinicalKey) ? collides : seen).add(clinicalKey);
    seen.clear();
    const keys = uniqueFactKeys(candidates, (candidate, extraParts) => keyWith(candidate, extraParts), (candidate) => this.spool.read(candidate.spooled).slice(0, DIGEST_LENGTH));
    const reportRecordIds = new Map<number, string>();
    for (const [candidate, key] of keys) {
      if (collides.has(candidate.clinicalKey)) candidate.key = key;
      if (candidate.resourceType === "DiagnosticReport") reportRecordIds.set(candidate.position, this.recordIdOf(candidate));
      if (candidate.invalid) this.skipped.push({ resourceType: candidate.resourceType, resourceId: candidate.resourceId, reason: candidate.invalid });
    }
    for (const [report, document] of served) {
      if (keys.has(document)) reportRecordIds.set(report.position, this.recordIdOf(document));
    }
    const dropped = new Set<Drafted>(served.keys());
    for (const folded of alsoFrom.values()) for (const candidate of folded) dropped.add(candidate);
    this.finished = { dropped, alsoFrom, reportRecordIds };
    return { skipped: this.skipped, context: this.context };
  }

  /** The category and warnings of each fact (for the import's fidelity summary), without reading the spool. */
  factSummaries(): { category: Category; record: { warnings?: string[] } }[] {
    const { dropped } = this.done();
    return this.drafted.filter((candidate) => !dropped.has(candidate) && !candidate.invalid).map(({ category, warnings }) => ({ category, record: { warnings } }));
  }

  /**
   * The facts, read back from the spool, in read order (category, newest first, then record id, as read-order.ts
   * orders new records), so the store writes new records as it reads them; once.
   */
  *facts(): Generator<SerializedFact> {
    const { dropped, alsoFrom, reportRecordIds } = this.done();
    const facts = this.drafted.filter((candidate) => !dropped.has(candidate) && !candidate.invalid);
    this.drafted = [];
    const recordIds = new Map(facts.map((candidate) => [candidate, this.recordIdOf(candidate)]));
    const position = new Map(CATEGORIES.map((category, index) => [category, index]));
    facts.sort((left, right) => {
      const [a, b] = [recordIds.get(left)!, recordIds.get(right)!];
      return position.get(left.category)! - position.get(right.category)! || right.sortAt - left.sortAt || (a < b ? 1 : a > b ? -1 : 0);
    });
    for (let start = 0; start < facts.length; start += RECORDS_PER_READ) {
      const batch = facts.slice(start, start + RECORDS_PER_READ);
      const texts = this.spool.readMany(batch.map((candidate) => candidate.spooled));
      for (const [index, candidate] of batch.entries()) yield this.serialized(candidate, texts[index]!, recordIds.get(candidate)!, alsoFrom, reportRecordIds);
    }
  }

  /** A drafted record as the store takes it: its spooled text with the parts only the whole source decides filled in. */
  private serialized(candidate: Drafted, spooled: string, recordId: string, alsoFrom: Finished["alsoFrom"], reportRecordIds: Finished["reportRecordIds"]): SerializedFact {
    const sources = [candidate, ...(alsoFrom.get(candidate) ?? [])].map((from) => this.sourceRef(from));
    const values = [JSON.stringify(recordId)];
    if (candidate.groupedBy !== undefined) values.push(JSON.stringify(reportRecordIds.get(candidate.groupedBy) ?? null));
    values.push(canonicalJson(sources));
    const parts = spooled.slice(DIGEST_LENGTH).split(SEPARATOR);
    if (parts.length !== values.length + 1) throw new Error("a spooled record does not have the parts it was written with");
    let json = parts[0]!;
    for (let slot = 0; slot < values.length; slot++) json += values[slot]! + parts[slot + 1]!;
    return { category: candidate.category, factKey: factKeyOf(candidate), recordId, json, sortAt: new Date(candidate.sortAt), sources, warnings: candidate.warnings ?? [] };
  }

  private indexed(): SourceIndex {
    if (!this.index) throw new Error("the paged normalization is finished");
    return this.index;
  }

  private done(): Finished {
    if (!this.finished) throw new Error("the paged normalization is not finished");
    return this.finished;
  }

  private recordIdOf(candidate: Drafted): string {
    return stableId("rec_", this.scope, candidate.category, factKeyOf(candidate));
  }

  private sourceRef(candidate: Drafted): SourceRef {
    return {
      sourceId: this.source.sourceId,
      sourceName: this.source.sourceName,
      resourceType: candidate.resourceType,
      resourceId: candidate.resourceId,
      ...(candidate.origin ? { document: candidate.origin } : {}),
    };
  }

  /** As normalizeEntries reads one resource, then drafts its record (the whole-source steps left for `finish`). */
  private normalizeEntry(position: number, entry: CleanedEntry, origin: DocumentOrigin | undefined): void {
    const { resource } = entry;
    const resourceType = string(resource.resourceType);
    const resourceId = string(resource.id);
    const normalizer = resourceType === null ? undefined : NORMALIZERS[resourceType];
    if (resourceType === null) {
      this.skipped.push({ resourceType: "unknown", resourceId, reason: "resource has no resourceType" });
      return;
    }
    if (!normalizer || (origin && resourceType === "Patient")) {
      this.context.push({ resourceType, resourceId, reason: normalizer ? CCDA_PATIENT : CONTEXT_REASON });
      return;
    }
    const index = this.indexed();
    const { resolve, reportOf, placeholders } = index.contextFor(position, entry);
    const outcome = normalizeSafely(resourceType, resource, normalizer, { resolve, reportOf }, placeholders);
    if ("skipReason" in outcome) {
      this.skipped.push({ resourceType, resourceId, reason: outcome.skipReason });
      return;
    }
    const warnings = [...(outcome.warnings ?? []), ...(index.documentWarnings.get(position) ?? [])];
    const category = outcome.data.category;
    const key = factKey(outcome.keyParts);
    const groupedBy = outcome.groupedBy && index.position(outcome.groupedBy, { position, entry });
    const record = {
      recordId: PROVISIONAL_ID,
      ...withReportRecordId(outcome.data, outcome.groupedBy, new Map()),
      encounter: category === "demographics" ? null : encounterContext(resource, resolve, this.encounters),
      ...(warnings.length > 0 ? { warnings } : {}),
      sources: [{ sourceId: this.source.sourceId, sourceName: this.source.sourceName, resourceType, resourceId, ...(origin ? { document: origin } : {}) }],
    };
    const hasReportSlot = groupedBy !== undefined && groupedBy !== null && "report" in outcome.data && Boolean(outcome.data.report);
    const drafted = new Drafted(
      JSON.stringify([category, key]),
      NORMALIZED_TYPES.get(resourceType) ?? detached(resourceType),
      resourceId === null ? null : detached(resourceId),
      category,
      this.drafted.length,
      origin,
      outcome.keyParts.length === 0,
    );
    if (resourceType === "DiagnosticReport" || resourceType === "DocumentReference") {
      drafted.position = position;
      drafted.noteKeys = noteKeys(resourceType, resource).map(detached);
    }
    if (hasReportSlot) drafted.groupedBy = groupedBy;
    if (warnings.length > 0) drafted.warnings = warnings;
    const digest = contentDigest(outcome);
    this.drafted.push(drafted);
    const checked = recordSchemas[category].safeParse(record);
    if (!checked.success) {
      drafted.invalid = `normalized ${category} record is invalid: ${checked.error.issues[0]?.message}`;
      this.spool.append(digest);
      return;
    }
    const parsed = checked.data as Json & { report?: Json };
    drafted.sortAt = recordSortAt(category, parsed as unknown as NormalizedRecord).getTime();
    parsed.recordId = RECORD_ID;
    if (hasReportSlot) parsed.report!.recordId = REPORT_RECORD_ID;
    parsed.sources = SOURCES;
    this.spool.append(digest + canonicalJson(parsed).replace(SLOT, SEPARATOR));
  }
}

/** The normalized types' names, one string each, for what every drafted record keeps. */
const NORMALIZED_TYPES = new Map(Object.keys(NORMALIZERS).map((type) => [type, type]));

type Finished = { dropped: Set<Drafted>; alsoFrom: Map<Drafted, Drafted[]>; reportRecordIds: Map<number, string> };

/** The clinical key's own key (what factKey(keyParts) wrote), from the clinical key that holds it. */
function baseKey(candidate: Drafted): string {
  return (JSON.parse(candidate.clinicalKey) as [string, string])[1];
}

function keyWith(candidate: Drafted, extraParts: KeyPart[]): string {
  if (extraParts.length === 0) return baseKey(candidate);
  return candidate.noKeyParts ? factKey(extraParts) : `${baseKey(candidate)}|${factKey(extraParts)}`;
}

function factKeyOf(candidate: Drafted): string {
  return candidate.key ?? baseKey(candidate);
}
