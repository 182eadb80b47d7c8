import type { Category } from "../categories";
import type { NormalizedRecord, RecordData } from "../schemas";
import type { KeyPart } from "./fact-key";
import type { Json } from "./read";
import type { ReferenceResolver } from "./references";
import type { ReportFinder } from "./report-links";

export type SourceInfo = { sourceId: string; sourceName: string };

/** One normalized clinical fact. factKey is deterministic and source-independent: the same fact reported by
 *  two sources gets the same factKey. record.recordId = stableId("rec_", scope, category, factKey). */
export type NormalizedFact = { category: Category; factKey: string; record: NormalizedRecord };

export type SkippedResource = { resourceType: string; resourceId: string | null; reason: string };

/** facts and skipped as before; context lists every other resource (Organization, Practitioner, Medication, ...),
 *  each with why it is not a record, so that every resource of a batch is accounted for. */
export type NormalizationResult = { facts: NormalizedFact[]; skipped: SkippedResource[]; context: SkippedResource[] };

export type NormalizeContext = { resolve: ReferenceResolver; reportOf: ReportFinder };

/** A record before it has an id and provenance: its category-specific fields plus the clinical content that
 *  identifies the fact (turned into the factKey once collisions within the source are known). groupedBy is the
 *  DiagnosticReport that lists a result, whose documents record id the result's `report` gets once ids are known;
 *  warnings become the record's `warnings`. */
export type RecordDraft = { keyParts: KeyPart[]; data: RecordData; groupedBy?: Json; warnings?: string[] };

export type DraftOutcome = RecordDraft | { skipReason: string };

export type ResourceNormalizer = (resource: Json, context: NormalizeContext) => DraftOutcome;
