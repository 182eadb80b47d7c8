import { withNestedBundlesOpened, type UncheckedEntry } from "./bundle-entries";
import { binaryNamed, ccdaResources, type DocumentOrigin } from "./ccda";
import type { PlaceholderPaths } from "./placeholder-warnings";
import { withoutPlaceholders } from "./placeholders";
import { code, detached, isObject, object, objects, string, type Json } from "./read";
import type { RecordSpool } from "./record-spool";
import { eachLiteralReference, TYPE_AND_ID, type ReferenceResolver } from "./references";
import type { ReportFinder } from "./report-links";
import type { SkippedResource } from "./types";

/**
 * The fields any normalizer reads of a resource it reaches through a reference: a visit's class, type, period and
 * place (encounter-context.ts), the concept a reason, diagnosis or medication names (`code`), a specimen's `type`, a
 * person's or place's `name`, a billed prescription's medication, and the resources contained in a visit that its
 * own references point at. Only these are kept of each resource until the source is normalized: a reader of another
 * field of a referenced resource must add it here (the paged-normalization equivalence test compares with the
 * whole source).
 */
const TARGET_FIELDS = [
  "resourceType",
  "id",
  "name",
  "code",
  "type",
  "class",
  "serviceType",
  "period",
  "location",
  "serviceProvider",
  "contained",
  "medicationCodeableConcept",
];

/** A resource of the batch as the normalizers read it: placeholder text removed (see placeholder-warnings.ts). */
export type CleanedEntry = { resource: Json; placeholders: string[] };

/** The batch's object entries, nested Bundles opened; what is not a resource object is reported to `skips`. */
export function objectEntries(unchecked: UncheckedEntry[], skips?: { nested: SkippedResource[]; nonObject: SkippedResource[] }): { resource: Json; fullUrl: string | null }[] {
  const entries: { resource: Json; fullUrl: string | null }[] = [];
  for (const { resource, fullUrl } of withNestedBundlesOpened(unchecked, skips?.nested ?? [])) {
    if (isObject(resource)) entries.push({ resource, fullUrl });
    else skips?.nonObject.push({ resourceType: "unknown", resourceId: null, reason: "entry is not a FHIR resource object" });
  }
  return entries;
}

/** As entriesWithoutPlaceholders cleans one resource: a resource whose fields cannot even be read is left as sent. */
export function cleaned(resource: Json): CleanedEntry {
  try {
    const scan = withoutPlaceholders(resource);
    return { resource: scan.resource, placeholders: scan.paths };
  } catch {
    return { resource, placeholders: [] };
  }
}

/**
 * Where a resource the index holds lies in the batch, on the resource itself (a symbol, not enumerable: no reader
 * copies or serializes it), as a WeakMap of every resource of the source cost more than the resources' own fields.
 */
const POSITION = Symbol("position in the batch");
type Positioned = Json & { [POSITION]?: number };

type DocumentAttachment =
  | { document: number; origin: DocumentOrigin; outcome: ReturnType<typeof ccdaResources> }
  | { document: number; origin: DocumentOrigin; url: string; contentType: string | null; ordinal: number };

/**
 * What every resource of one source needs to know of the others, gathered in one pass over the source's pages, so
 * that a second pass can normalize each page alone (paged-normalization.ts): where each reference resolves (by
 * position in the batch, as the whole-source resolver would: a fullUrl, then the last `Type/id`), what a
 * resolved resource shows (its TARGET_FIELDS), the report that groups each
 * result, and the resources the batch's C-CDA documents become (held, as the whole-source path holds them, until
 * they are normalized after the source's own). Positions count the batch's object entries, then the C-CDA ones.
 */
export class SourceIndex {
  readonly nestedSkips: SkippedResource[] = [];
  readonly nonObjectSkips: SkippedResource[] = [];
  /** Object entries of the source's own pages (the C-CDA documents' resources are numbered after them). */
  sourceEntries = 0;
  private readonly byFullUrl = new Map<string, number>();
  private readonly byTypeAndId = new Map<string, number>();
  /** The resources a reference may reach, by position: held from the end of the index (projected), or whole (C-CDA). */
  private readonly targets: (Json | undefined)[] = [];
  /**
   * Where each resource's projection lies in the spool until the whole source says which are referenced: most
   * are not (a lab result is named only by its report, if at all), and held, they were most of a large import's memory.
   */
  private spooledTargets: number[] = [];
  /** Placeholder paths of a spooled projection, by position (few resources have any). */
  private readonly spooledPlaceholders = new Map<number, string[]>();
  /** Every reference any resource of the batch makes (the string, and its `Type/id`): what can be resolved at all. */
  private referenced: Set<string> | null = new Set();
  private readonly placeholdersOf = new WeakMap<Json, string[]>();
  private readonly reportResults: { report: number; references: string[] }[] = [];
  private readonly binaries = new Map<string, { position: number; resource: Json }>();
  private readonly attachments: DocumentAttachment[] = [];
  private readonly reportOfResult = new Map<number, number>();
  /** The C-CDA documents' resources, cleaned, with the document each came from (positions from `sourceEntries`). */
  readonly derived: { entry: CleanedEntry; origin: DocumentOrigin }[] = [];
  /** Why a document's C-CDA could not be read, by the document's position. */
  readonly documentWarnings = new Map<number, string[]>();
  private complete = false;

  constructor(private readonly spool: RecordSpool) {}

  /** One page of the source, in the source's order. */
  add(page: UncheckedEntry[]): void {
    if (this.complete) throw new Error("the source index is complete");
    for (const { resource: raw, fullUrl } of objectEntries(page, { nested: this.nestedSkips, nonObject: this.nonObjectSkips })) {
      const position = this.sourceEntries++;
      this.noteDocument(raw, position);
      this.note(cleaned(raw), fullUrl, position, false);
    }
  }

  /** After the last page: reads the C-CDA documents (their Binaries are now known) and links results to reports. */
  completeIndex(): void {
    const named = new Set<Json>();
    const read = (document: number, origin: DocumentOrigin, outcome: ReturnType<typeof ccdaResources>) => {
      if (outcome === null) return;
      if ("warning" in outcome) this.documentWarnings.set(document, [...(this.documentWarnings.get(document) ?? []), outcome.warning]);
      else for (const resource of outcome.resources) this.derived.push({ entry: cleaned(resource), origin });
    };
    for (const attachment of this.attachments) {
      if ("outcome" in attachment) {
        read(attachment.document, attachment.origin, attachment.outcome);
        continue;
      }
      const binary = binaryNamed(attachment.url, this.binaries);
      if (binary) named.add(binary.resource);
      const contentType = attachment.contentType ?? string(binary?.resource.contentType);
      const data = string(binary?.resource.data);
      if (data === null) continue;
      read(attachment.document, attachment.origin, ccdaResources({ contentType, data }, attachment.origin, attachment.ordinal));
    }
    for (const { position, resource } of this.binaries.values()) {
      if (named.has(resource)) continue;
      const origin = { resourceType: String(resource.resourceType), resourceId: string(resource.id) };
      read(position, origin, ccdaResources({ contentType: string(resource.contentType), data: string(resource.data) }, origin, 0));
    }
    this.binaries.clear();
    this.attachments.length = 0;
    this.derived.forEach(({ entry }, index) => this.note(entry, null, this.sourceEntries + index, true));

    for (const { report, references } of this.reportResults) {
      for (const reference of references) {
        const result = this.positionOfTarget(reference);
        if (result !== undefined && !this.reportOfResult.has(result)) this.reportOfResult.set(result, report);
      }
    }
    this.reportResults.length = 0;
    this.keepOnlyReferenced();
    this.complete = true;
  }

  /**
   * The resolver, report finder and placeholder paths the normalizers get while the resource at `position` (as
   * cleaned) is normalized: what they return is what the whole-source ones return, resolved resources trimmed to
   * what is read of them.
   */
  contextFor(position: number, current: CleanedEntry): { resolve: ReferenceResolver; reportOf: ReportFinder; placeholders: PlaceholderPaths } {
    const at = (target: number | undefined) => (target === undefined ? null : target === position ? current.resource : (this.targets[target] ?? null));
    const resolve: ReferenceResolver = (reference, holder) => {
      const target = string(object(reference)?.reference);
      if (!target) return null;
      if (target.startsWith("#")) return objects(holder.contained).find((contained) => contained.id === target.slice(1)) ?? null;
      return at(this.positionOfTarget(target));
    };
    const reportOf: ReportFinder = (result) => {
      const resultPosition = result === current.resource ? position : (result as Positioned)[POSITION];
      return resultPosition === undefined ? null : at(this.reportOfResult.get(resultPosition));
    };
    const placeholders = { get: (resource: Json) => (resource === current.resource ? current.placeholders : this.placeholdersOf.get(resource)) } as PlaceholderPaths;
    return { resolve, reportOf, placeholders };
  }

  /** The position of a resource the resolver returned (a report a result names), null for a contained one. */
  position(resource: Json, current: { position: number; entry: CleanedEntry }): number | null {
    return resource === current.entry.resource ? current.position : ((resource as Positioned)[POSITION] ?? null);
  }

  /** As expandCcdaDocuments reads a DocumentReference's attachments and the batch's Binaries (ccda.ts). */
  private noteDocument(raw: Json, position: number): void {
    const id = string(raw.id);
    if (raw.resourceType === "Binary" && id !== null) this.binaries.set(id, { position, resource: raw });
    if (raw.resourceType !== "DocumentReference") return;
    const origin = { resourceType: "DocumentReference", resourceId: id === null ? null : detached(id) };
    objects(raw.content).forEach((content, ordinal) => {
      const attachment = object(content.attachment);
      if (!attachment) return;
      const data = string(attachment.data);
      const contentType = string(attachment.contentType);
      if (data !== null) {
        const outcome = ccdaResources({ contentType, data }, origin, ordinal);
        if (outcome !== null) this.attachments.push({ document: position, origin, outcome });
        return;
      }
      const url = string(attachment.url);
      if (url !== null) this.attachments.push({ document: position, origin, url, contentType, ordinal });
    });
  }

  private note(entry: CleanedEntry, fullUrl: string | null, position: number, whole: boolean): void {
    const { resource, placeholders } = entry;
    const type = string(resource.resourceType);
    const id = string(resource.id);
    if (fullUrl) this.byFullUrl.set(detached(fullUrl), position);
    if (type && id) this.byTypeAndId.set(detached(`${type}/${id}`), position);
    if (whole) this.hold(resource, position, placeholders);
    else {
      this.spooledTargets[position] = this.spool.append(JSON.stringify(projection(resource)));
      if (placeholders.length > 0) this.spooledPlaceholders.set(position, placeholders);
    }
    const referenced = this.referenced!;
    // Every reference as the resolver would look it up: the string (a fullUrl) and its trailing `Type/id`.
    eachLiteralReference(resource, (reference) => {
      if (reference.startsWith("#") || referenced.has(reference)) return;
      referenced.add(detached(reference));
      const match = TYPE_AND_ID.exec(reference);
      if (match) referenced.add(detached(`${match[1]}/${match[2]}`));
    });
    if (resource.resourceType === "DiagnosticReport" && code(resource.status) !== "entered-in-error") {
      const references = objects(resource.result).flatMap((reference) => detachedOrNone(string(reference.reference)));
      if (references.length > 0) this.reportResults.push({ report: position, references });
    }
  }

  /** A resource a reference may reach, as the resolver returns it: knowing its position and placeholder paths. */
  private hold(target: Json, position: number, placeholders: string[]): void {
    this.targets[position] = target;
    Object.defineProperty(target, POSITION, { value: position });
    if (placeholders.length > 0) this.placeholdersOf.set(target, placeholders);
  }

  /**
   * Holds what a reference can reach, read back from the spool, and lets go of the rest: the resources no reference
   * of the batch names (most of a source's records: a lab result is named only by its report, if at all), but the
   * reports that group results (reportOf returns them) and the C-CDA documents' resources (normalized from here).
   */
  private keepOnlyReferenced(): void {
    const referenced = this.referenced!;
    const kept = new Set<number>(this.reportOfResult.values());
    for (const positions of [this.byFullUrl, this.byTypeAndId]) {
      for (const [key, position] of positions) {
        if (referenced.has(key)) kept.add(position);
        else positions.delete(key);
      }
    }
    const restored = [...kept].filter((position) => position < this.sourceEntries).sort((left, right) => left - right);
    const texts = this.spool.readMany(restored.map((position) => this.spooledTargets[position]!));
    restored.forEach((position, index) => this.hold(JSON.parse(texts[index]!) as Json, position, this.spooledPlaceholders.get(position) ?? []));
    this.spooledTargets = [];
    this.spooledPlaceholders.clear();
    this.referenced = null;
  }

  /** Where a literal reference resolves, as referenceResolver finds it: a fullUrl, else the trailing `Type/id`. */
  private positionOfTarget(target: string): number | undefined {
    if (target.startsWith("#")) return undefined;
    const byUrl = this.byFullUrl.get(target);
    if (byUrl !== undefined) return byUrl;
    const match = TYPE_AND_ID.exec(target);
    return match ? this.byTypeAndId.get(`${match[1]}/${match[2]}`) : undefined;
  }
}

/** TARGET_FIELDS of a resource (spooled as JSON, and read back as a copy of their own, not slices of the page it was read from). */
function projection(resource: Json): Json {
  const kept: Json = {};
  for (const field of TARGET_FIELDS) if (field in resource) kept[field] = resource[field];
  return kept;
}

function detachedOrNone(text: string | null): string[] {
  return text === null ? [] : [detached(text)];
}
