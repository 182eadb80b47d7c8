import { randomUUID } from "node:crypto";
import { contextFhirId, isContextType, patientFhirId, recordFhirId, storedResource, type ReferenceTargets } from "@/lib/fhir";
import { stableId } from "@/lib/ids";
import type { Category } from "../categories";
import { recordSchemas, type NormalizedRecord, type SourceRef } from "../schemas";
import { canonicalJson } from "../store/content-hash";
import { compareInReadOrder } from "../store/read-order";
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
import type { RecordSpool } from "./record-spool";
import { noteKeys, servedAsDocuments } from "./same-note";
import { cleaned, objectEntries, SourceIndex, type CleanedEntry } from "./source-index";
import type { SkippedResource, SourceInfo } from "./types";

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
  /**
   * The FHIR resource behind the record as the source sent it, as stored-resource.ts keeps it (the record's FHIR
   * id, references rewritten), canonical JSON; null or absent where there is none (a producer of facts without it).
   */
  resource?: string | null;
};

/** A resource records reference that is no record (stored-resource.ts CONTEXT_TYPES), as the FHIR view keeps it. */
export type SerializedContext = { id: string; resourceType: string; json: string };

/**
 * What a paged normalization keeps of each drafted record while the rest of the source is read: what the
 * whole-source steps (notes served as documents, C-CDA facts folded, colliding fact keys, report links) decide
 * by, not the record itself, which waits in the spool with its fact key. A class, so every one has the same few
 * in-object fields; what few records have is in `extra`.
 */
class Drafted {
  extra: DraftedExtra | undefined = undefined;
  sortAt = 0;
  /** The number in the spool of the resource the record was drafted from, as the source sent it. */
  resource = -1;

  constructor(
    /**
     * The id of the record its clinical key (category and fact key) gives under the scope: equal exactly when the
     * clinical keys are (what folding and keying group by), and the record's id unless its key collides. Held in
     * place of the key, which is longer (the key waits in the spool).
     */
    readonly clinicalKey: string,
    readonly resourceType: string,
    readonly resourceId: string | null,
    readonly category: Category,
    /** Its number in the spool, where its contentDigest and its fact key come first (see `spooledHead`). */
    readonly spooled: number,
  ) {}

  get origin(): DocumentOrigin | undefined {
    return this.extra?.origin;
  }

  get recordId(): string {
    return this.extra?.keyed?.recordId ?? this.clinicalKey;
  }
}

type DraftedExtra = {
  origin?: DocumentOrigin;
  /** The position of a DiagnosticReport or DocumentReference in the batch (report links name their records). */
  position?: number;
  /** The position of the report that groups this result, when its record names the report's record. */
  groupedBy?: number;
  noteKeys?: string[];
  warnings?: string[];
  /** Why the record breaks its schema (unreachable while readers and schemas agree). */
  invalid?: string;
  /** Set in `finish` for a fact whose clinical key collides: its key with the parts uniqueFactKeys added, and the id it gives. */
  keyed?: { key: string; recordId: string };
};

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
/** A spooled record starts with its contentDigest (hex, this long), then its fact key as JSON, then SEPARATOR. */
const DIGEST_LENGTH = 16;

/**
 * One source normalized page by page, with what `normalizeResources` gives for the whole source at once: the same
 * facts, skips and context. The pages are read twice, in the same order: `index` each (what every resource needs
 * of the others: source-index.ts), then `normalize` each, which drafts its records into the spool and keeps only
 * what the whole-source steps decide by. `finish` takes those steps; `facts` then reads the records back, complete.
 * What stays in memory is the index (the positions of the source's resources by id, a few fields of each resource a
 * reference reaches, the C-CDA documents' resources) and a few hundred bytes per record, never a page of records
 * beyond the one at hand.
 */
export class PagedNormalization {
  private index: SourceIndex | null;
  private readonly skipped: SkippedResource[] = [];
  private readonly context: SkippedResource[] = [];
  private drafted: Drafted[] = [];
  private readonly encounters: EncounterContexts = new Map();
  private normalized = 0;
  private finished: Finished | null = null;
  /** The context resources (stored-resource.ts CONTEXT_TYPES) the source sent, each waiting in the spool. */
  private contextResources: { resourceType: string; resourceId: string; spooled: number }[] = [];
  /** Once finished: each `Type/id` of the source to the `Type/id` the FHIR view serves it as. */
  private fhirTargets: ReferenceTargets = new Map<string, string>();

  constructor(
    private readonly source: SourceInfo,
    private readonly scope: string,
    private readonly spool: RecordSpool,
  ) {
    this.index = new SourceIndex(spool);
  }

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

    const served = servedAsDocuments(this.drafted, (candidate) => candidate.extra?.noteKeys ?? []);
    for (const { resourceType, resourceId } of served.keys()) this.skipped.push({ resourceType, resourceId, reason: SERVED_AS_DOCUMENT });
    const { candidates, alsoFrom } = withDocumentFactsFolded(this.drafted.filter((candidate) => !served.has(candidate)));
    const collides = new Set<string>();
    const seen = new Set<string>();
    for (const { clinicalKey } of candidates) (seen.has(clinicalKey) ? collides : seen).add(clinicalKey);
    seen.clear();
    const heads = new Map<Drafted, SpooledHead>();
    const headOf = (candidate: Drafted) => heads.get(candidate) ?? heads.set(candidate, spooledHead(this.spool.read(candidate.spooled))).get(candidate)!;
    // A candidate whose clinical key is its own keeps the key it was drafted with (in the spool), and its id.
    const keyOf = (candidate: Drafted, extraParts: KeyPart[]) => (extraParts.length === 0 ? "" : keyWith(headOf(candidate).key, extraParts));
    const keys = uniqueFactKeys(candidates, keyOf, (candidate) => headOf(candidate).digest);
    const reportRecordIds = new Map<number, string>();
    for (const [candidate, key] of keys) {
      if (collides.has(candidate.clinicalKey)) (candidate.extra ??= {}).keyed = { key, recordId: stableId("rec_", this.scope, candidate.category, key) };
      if (candidate.resourceType === "DiagnosticReport") reportRecordIds.set(candidate.extra!.position!, candidate.recordId);
      if (candidate.extra?.invalid) this.skipped.push({ resourceType: candidate.resourceType, resourceId: candidate.resourceId, reason: candidate.extra.invalid });
    }
    for (const [report, document] of served) {
      if (keys.has(document)) reportRecordIds.set(report.extra!.position!, document.recordId);
    }
    const dropped = new Set<Drafted>(served.keys());
    for (const folded of alsoFrom.values()) for (const candidate of folded) dropped.add(candidate);
    this.finished = { dropped, alsoFrom, reportRecordIds };
    this.fhirTargets = this.servedTargets(candidates, alsoFrom, served);
    return { skipped: this.skipped, context: this.context };
  }

  /**
   * Where the FHIR view serves each resource of the source (stored-resource.ts): a record's resource, and any
   * resource folded into a record, as the record; the Patient as the subject; a context resource by its own id.
   */
  private servedTargets(candidates: readonly Drafted[], alsoFrom: Finished["alsoFrom"], served: ReadonlyMap<Drafted, Drafted>): ReferenceTargets {
    const targets = new Map<string, string>();
    const patient = `Patient/${patientFhirId(this.scope)}`;
    const as = (from: Drafted, into: Drafted) => {
      if (from.resourceId === null) return;
      targets.set(`${from.resourceType}/${from.resourceId}`, into.category === "demographics" ? patient : `${into.resourceType}/${recordFhirId(into.recordId)}`);
    };
    for (const candidate of candidates) as(candidate, candidate);
    for (const [keeper, folded] of alsoFrom) for (const candidate of folded) as(candidate, keeper);
    for (const [report, document] of served) as(report, document);
    for (const { resourceType, resourceId } of this.contextResources) {
      targets.set(`${resourceType}/${resourceId}`, `${resourceType}/${contextFhirId(this.scope, this.source.sourceId, resourceType, resourceId)}`);
    }
    return withPatients(targets, patient);
  }

  /** The source's context resources as the FHIR view keeps them; after `finish`, once. */
  *contextFacts(): Generator<SerializedContext> {
    this.done();
    const context = this.contextResources;
    this.contextResources = [];
    for (let start = 0; start < context.length; start += RECORDS_PER_READ) {
      const batch = context.slice(start, start + RECORDS_PER_READ);
      const texts = this.spool.readMany(batch.map((resource) => resource.spooled));
      for (const [index, { resourceType, resourceId }] of batch.entries()) {
        const id = contextFhirId(this.scope, this.source.sourceId, resourceType, resourceId);
        yield { id, resourceType, json: canonicalJson(storedResource(JSON.parse(texts[index]!) as Record<string, unknown>, id, this.fhirTargets)) };
      }
    }
  }

  /** The category and warnings of each fact (for the import's fidelity summary), without reading the spool. */
  factSummaries(): { category: Category; record: { warnings?: string[] } }[] {
    const { dropped } = this.done();
    return this.drafted.filter((candidate) => !dropped.has(candidate) && !candidate.extra?.invalid).map(({ category, extra }) => ({ category, record: { warnings: extra?.warnings } }));
  }

  /**
   * The facts, read back from the spool, in read order (category, newest first, then record id, as read-order.ts
   * orders new records), so the store writes new records as it reads them; once.
   */
  *facts(): Generator<SerializedFact> {
    const { dropped, alsoFrom, reportRecordIds } = this.done();
    const facts = this.drafted.filter((candidate) => !dropped.has(candidate) && !candidate.extra?.invalid);
    this.drafted = [];
    facts.sort(compareInReadOrder);
    for (let start = 0; start < facts.length; start += RECORDS_PER_READ) {
      const batch = facts.slice(start, start + RECORDS_PER_READ);
      const texts = this.spool.readMany([...batch.map((candidate) => candidate.spooled), ...batch.map((candidate) => candidate.resource)]);
      for (const [index, candidate] of batch.entries()) {
        const fact = this.serialized(candidate, texts[index]!, alsoFrom, reportRecordIds);
        const fhirId = candidate.category === "demographics" ? patientFhirId(this.scope) : recordFhirId(candidate.recordId);
        fact.resource = canonicalJson(storedResource(JSON.parse(texts[batch.length + index]!) as Record<string, unknown>, fhirId, this.fhirTargets));
        yield fact;
      }
    }
  }

  /** A drafted record as the store takes it: its spooled text with the parts only the whole source decides filled in. */
  private serialized(candidate: Drafted, spooled: string, alsoFrom: Finished["alsoFrom"], reportRecordIds: Finished["reportRecordIds"]): SerializedFact {
    const { extra, recordId } = candidate;
    const sources = [candidate, ...(alsoFrom.get(candidate) ?? [])].map((from) => this.sourceRef(from));
    const values = [JSON.stringify(recordId)];
    if (extra?.groupedBy !== undefined) values.push(JSON.stringify(reportRecordIds.get(extra.groupedBy) ?? null));
    values.push(canonicalJson(sources));
    const head = spooledHead(spooled);
    const parts = spooled.slice(head.end).split(SEPARATOR);
    if (parts.length !== values.length + 1) throw new Error("a spooled record does not have the parts it was written with");
    let json = parts[0]!;
    for (let slot = 0; slot < values.length; slot++) json += values[slot]! + parts[slot + 1]!;
    const factKey = extra?.keyed?.key ?? head.key ?? "";
    return { category: candidate.category, factKey, recordId, json, sortAt: new Date(candidate.sortAt), sources, warnings: extra?.warnings ?? [] };
  }

  private indexed(): SourceIndex {
    if (!this.index) throw new Error("the paged normalization is finished");
    return this.index;
  }

  private done(): Finished {
    if (!this.finished) throw new Error("the paged normalization is not finished");
    return this.finished;
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

  /** A context resource (stored-resource.ts CONTEXT_TYPES) waits in the spool for the FHIR view. */
  private keepContext(resourceType: string, resourceId: string | null, resource: Json): void {
    if (resourceId === null || !isContextType(resourceType)) return;
    this.contextResources.push({ resourceType: detached(resourceType), resourceId: detached(resourceId), spooled: this.spool.append(canonicalJson(resource)) });
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
      this.keepContext(resourceType, resourceId, resource);
      return;
    }
    const index = this.indexed();
    const { resolve, reportOf, placeholders } = index.contextFor(position, entry);
    const outcome = normalizeSafely(resourceType, resource, normalizer, { resolve, reportOf }, placeholders);
    if ("skipReason" in outcome) {
      this.skipped.push({ resourceType, resourceId, reason: outcome.skipReason });
      // An Encounter is no record (ENCOUNTER_SKIP) but the FHIR view serves it as context.
      this.keepContext(resourceType, resourceId, resource);
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
    const digest = contentDigest(outcome);
    // The spooled text starts with what keying reads: the digest, and the key (null when it had no parts: a key
    // with parts added then has no leading separator). JSON escapes every control character, SEPARATOR included.
    const head = digest + JSON.stringify(outcome.keyParts.length === 0 ? null : key) + SEPARATOR;
    const extra: DraftedExtra = {};
    if (origin) extra.origin = origin;
    if (resourceType === "DiagnosticReport" || resourceType === "DocumentReference") {
      extra.position = position;
      extra.noteKeys = noteKeys(resourceType, resource).map(detached);
    }
    if (hasReportSlot) extra.groupedBy = groupedBy;
    if (warnings.length > 0) extra.warnings = warnings;
    const checked = recordSchemas[category].safeParse(record);
    let spooled: number;
    let sortAt = 0;
    if (!checked.success) {
      extra.invalid = `normalized ${category} record is invalid: ${checked.error.issues[0]?.message}`;
      spooled = this.spool.append(head);
    } else {
      const parsed = checked.data as Json & { report?: Json };
      sortAt = recordSortAt(category, parsed as unknown as NormalizedRecord).getTime();
      parsed.recordId = RECORD_ID;
      if (hasReportSlot) parsed.report!.recordId = REPORT_RECORD_ID;
      parsed.sources = SOURCES;
      spooled = this.spool.append(head + canonicalJson(parsed).replace(SLOT, SEPARATOR));
    }
    const drafted = new Drafted(
      stableId("rec_", this.scope, category, key),
      NORMALIZED_TYPES.get(resourceType) ?? detached(resourceType),
      resourceId === null ? null : detached(resourceId),
      category,
      spooled,
    );
    drafted.sortAt = sortAt;
    drafted.resource = this.spool.append(canonicalJson(resource));
    if (Object.keys(extra).length > 0) drafted.extra = extra;
    this.drafted.push(drafted);
  }
}

/** The normalized types' names, one string each, for what every drafted record keeps. */
const NORMALIZED_TYPES = new Map(Object.keys(NORMALIZERS).map((type) => [type, type]));

type Finished = { dropped: Set<Drafted>; alsoFrom: Map<Drafted, Drafted[]>; reportRecordIds: Map<number, string> };

/**
 * What a spooled record's text starts with: the record's contentDigest, its fact key as drafted (null: it had no key
 * parts), and where the record's own text starts, after them.
 */
type SpooledHead = { digest: string; key: string | null; end: number };

function spooledHead(spooled: string): SpooledHead {
  const keyEnd = spooled.indexOf(SEPARATOR, DIGEST_LENGTH);
  if (keyEnd < 0) throw new Error("a spooled record does not have the parts it was written with");
  return { digest: spooled.slice(0, DIGEST_LENGTH), key: JSON.parse(spooled.slice(DIGEST_LENGTH, keyEnd)) as string | null, end: keyEnd + 1 };
}

/** A drafted key (null: it had no parts) with the parts uniqueFactKeys added. */
function keyWith(key: string | null, extraParts: KeyPart[]): string {
  return key === null ? factKey(extraParts) : `${key}|${factKey(extraParts)}`;
}

/** Every `Patient/<id>` of the source is the subject: a source holds one patient's records. */
function withPatients(targets: ReadonlyMap<string, string>, patient: string): ReferenceTargets {
  return { get: (key) => targets.get(key) ?? (key.startsWith("Patient/") ? patient : undefined) };
}
