import { sha256Hex } from "@/lib/sha256";
import { stableId } from "@/lib/ids";
import { recordSchemas, type NormalizedRecord } from "../schemas";
import { normalizeAllergy } from "./allergy";
import { bundleEntries, withNestedBundlesOpened, type UncheckedEntry } from "./bundle-entries";
import { expandCcdaDocuments, type DocumentOrigin } from "./ccda";
import { normalizeClaim } from "./claim";
import { firstCode } from "./codes";
import { normalizeCondition } from "./condition";
import { normalizeCoverage } from "./coverage";
import { normalizeDiagnosticReport } from "./diagnostic-report";
import { normalizeDocumentReference } from "./document-reference";
import { encounterContext, type EncounterContexts } from "./encounter-context";
import { factKey, type KeyPart } from "./fact-key";
import { normalizeImmunization } from "./immunization";
import { normalizeMedicationRequest, normalizeMedicationStatement } from "./medication";
import { normalizeMedicationDispense } from "./medication-dispense";
import { compareFacts } from "./merge";
import { normalizeObservation } from "./observation";
import { normalizePatient } from "./patient";
import { entriesWithoutPlaceholders, placeholderWarnings, type PlaceholderPaths } from "./placeholder-warnings";
import { normalizeProcedure } from "./procedure";
import { code, isObject, object, string, type Json } from "./read";
import { referenceResolver, type ResourceEntry } from "./references";
import { reportDocumentRecordIds, reportFinder, withReportRecordId } from "./report-links";
import { reportsServedAsDocuments } from "./same-note";
import type {
  DraftOutcome,
  NormalizationResult,
  NormalizeContext,
  NormalizedFact,
  RecordDraft,
  ResourceNormalizer,
  SkippedResource,
  SourceInfo,
} from "./types";

/**
 * The resource types that feed the ten categories, plus Encounter, which is always a reported skip: its date, type
 * and location are carried by every record that references it (encounter-context.ts). Other types (Organization,
 * Medication, Provenance, ...) are context: they are used to resolve references but never become records, and are
 * listed in `context` rather than `skipped`, so `skipped` lists only resources that a reader could have expected as
 * records.
 */
export const NORMALIZERS: Readonly<Record<string, ResourceNormalizer>> = {
  Patient: normalizePatient,
  Condition: normalizeCondition,
  MedicationRequest: normalizeMedicationRequest,
  MedicationStatement: normalizeMedicationStatement,
  MedicationDispense: normalizeMedicationDispense,
  AllergyIntolerance: normalizeAllergy,
  Immunization: normalizeImmunization,
  Observation: normalizeObservation,
  Procedure: normalizeProcedure,
  DocumentReference: normalizeDocumentReference,
  DiagnosticReport: normalizeDiagnosticReport,
  Claim: normalizeClaim,
  ExplanationOfBenefit: normalizeClaim,
  Coverage: normalizeCoverage,
  Encounter: () => ({ skipReason: ENCOUNTER_SKIP }),
};

export const ENCOUNTER_SKIP = "Encounter is not a record: the records that reference it carry its date, type and location";

const ENTERED_IN_ERROR = "entered-in-error";
export const SERVED_AS_DOCUMENT = "DiagnosticReport presents the same note as a DocumentReference, which is served instead";

/** Normalizes every resource of a FHIR Bundle (any Bundle type) from one source (see bundle-entries.ts). */
export function normalizeBundle(bundle: unknown, source: SourceInfo, scope: string): NormalizationResult {
  const raw = object(bundle);
  if (raw?.resourceType !== "Bundle") {
    const resourceType = string(raw?.resourceType) ?? "unknown";
    return { facts: [], skipped: [{ resourceType, resourceId: string(raw?.id), reason: "input is not a FHIR Bundle" }], context: [] };
  }
  return normalizeEntries(bundleEntries(raw), source, scope);
}

/** Same for a plain list of resources (the importer reads FHIR search results). Pass all of one source's resources
 *  in one call: references, and the results a DiagnosticReport groups, are only followed within the call. */
export function normalizeResources(resources: unknown[], source: SourceInfo, scope: string): NormalizationResult {
  return normalizeEntries(
    (Array.isArray(resources) ? resources : []).map((resource) => ({ resource, fullUrl: null })),
    source,
    scope,
  );
}

/** clinicalKey: the category and the fact key of the draft's clinical content, computed once (three steps group by it). */
type Candidate = { draft: RecordDraft; clinicalKey: string; resource: Json; resourceType: string; resourceId: string | null; origin?: DocumentOrigin };

export const CCDA_PATIENT = "the C-CDA document's patient: the source's own Patient is the demographics record";

function normalizeEntries(unchecked: UncheckedEntry[], source: SourceInfo, scope: string): NormalizationResult {
  const skipped: SkippedResource[] = [];
  const objectEntries: ResourceEntry[] = [];
  for (const { resource, fullUrl } of withNestedBundlesOpened(unchecked, skipped)) {
    if (isObject(resource)) objectEntries.push({ resource, fullUrl });
    else skipped.push({ resourceType: "unknown", resourceId: null, reason: "entry is not a FHIR resource object" });
  }

  // C-CDA documents the source sent (inline, or as a Binary of the batch) add the resources their sections become.
  const expanded = expandCcdaDocuments(objectEntries);
  const { entries, placeholders } = entriesWithoutPlaceholders([...objectEntries, ...expanded.derived.map(({ resource }) => ({ resource, fullUrl: null }))]);
  const originOf = new Map(expanded.derived.map(({ origin }, index) => [entries[objectEntries.length + index]!.resource, origin]));
  const documentWarnings = new Map(objectEntries.flatMap(({ resource }, index) => (expanded.warnings.has(resource) ? [[entries[index]!.resource, expanded.warnings.get(resource)!] as const] : [])));
  const resolve = referenceResolver(entries);
  const context = { resolve, reportOf: reportFinder(entries, resolve) };
  const drafted: Candidate[] = [];
  const contextResources: SkippedResource[] = [];
  for (const { resource } of entries) {
    const resourceType = string(resource.resourceType);
    const resourceId = string(resource.id);
    const normalizer = resourceType === null ? undefined : NORMALIZERS[resourceType];
    if (resourceType === null) {
      skipped.push({ resourceType: "unknown", resourceId, reason: "resource has no resourceType" });
      continue;
    }
    const origin = originOf.get(resource);
    if (!normalizer || (origin && resourceType === "Patient")) {
      contextResources.push({ resourceType, resourceId, reason: normalizer ? CCDA_PATIENT : CONTEXT_REASON });
      continue;
    }
    const outcome = normalizeSafely(resourceType, resource, normalizer, context, placeholders);
    if ("skipReason" in outcome) skipped.push({ resourceType, resourceId, reason: outcome.skipReason });
    else {
      const warnings = [...(outcome.warnings ?? []), ...(documentWarnings.get(resource) ?? [])];
      const clinicalKey = JSON.stringify([outcome.data.category, factKey(outcome.keyParts)]);
      drafted.push({ draft: { ...outcome, warnings }, clinicalKey, resource, resourceType, resourceId, ...(origin ? { origin } : {}) });
    }
  }

  const servedAsDocuments = reportsServedAsDocuments(drafted);
  for (const { resourceType, resourceId } of servedAsDocuments.keys()) {
    skipped.push({ resourceType, resourceId, reason: SERVED_AS_DOCUMENT });
  }
  const { candidates, alsoFrom } = withDocumentFactsFolded(drafted.filter((candidate) => !servedAsDocuments.has(candidate)));

  const keys = uniqueFactKeys(
    candidates,
    (candidate, extraParts) => factKey([...candidate.draft.keyParts, ...extraParts]),
    (candidate) => contentDigest(candidate.draft),
  );
  const recordIds = new Map(
    [...keys].map(([candidate, key]) => [candidate, stableId("rec_", scope, candidate.draft.data.category, key)]),
  );
  const reportDocumentIds = reportDocumentRecordIds(recordIds, servedAsDocuments);

  const facts: NormalizedFact[] = [];
  const encounters: EncounterContexts = new Map();
  for (const [candidate, key] of keys) {
    const { draft, resourceType, resourceId } = candidate;
    const category = draft.data.category;
    const record = {
      recordId: recordIds.get(candidate)!,
      ...withReportRecordId(draft.data, draft.groupedBy, reportDocumentIds),
      encounter: category === "demographics" ? null : encounterContext(candidate.resource, context.resolve, encounters),
      ...(draft.warnings && draft.warnings.length > 0 ? { warnings: draft.warnings } : {}),
      sources: [candidate, ...(alsoFrom.get(candidate) ?? [])].map((from) => ({
        sourceId: source.sourceId,
        sourceName: source.sourceName,
        resourceType: from.resourceType,
        resourceId: from.resourceId,
        ...(from.origin ? { document: from.origin } : {}),
      })),
    };
    const checked = recordSchemas[category].safeParse(record);
    if (checked.success) facts.push({ category, factKey: key, record: checked.data as NormalizedRecord });
    else {
      // Unreachable while the readers and schemas agree; a record that breaks its schema is never served.
      const reason = `normalized ${category} record is invalid: ${checked.error.issues[0]?.message}`;
      skipped.push({ resourceType, resourceId, reason });
    }
  }
  return { facts: facts.sort(compareFacts), skipped, context: contextResources };
}

/**
 * A fact a C-CDA document states that the source's FHIR resources (or an earlier document) also state, with the same
 * fact key, is one record: the document's resource is folded into it and listed in its `sources`, naming the
 * document. FHIR resources are never folded into one another (uniqueFactKeys keeps them apart).
 */
export function withDocumentFactsFolded<C extends FoldableCandidate>(drafted: C[]): { candidates: C[]; alsoFrom: Map<C, C[]> } {
  const clinicalKey = (candidate: C) => candidate.clinicalKey;
  const documentOf = ({ origin }: C) => (origin ? `${origin.resourceType}/${origin.resourceId ?? ""}` : null);
  const kept = new Map<string, C>();
  for (const candidate of drafted) if (!candidate.origin && !kept.has(clinicalKey(candidate))) kept.set(clinicalKey(candidate), candidate);
  const alsoFrom = new Map<C, C[]>();
  const candidates = drafted.filter((candidate) => {
    if (!candidate.origin) return true;
    const same = kept.get(clinicalKey(candidate));
    // Within one document, facts with one key stay apart, as FHIR resources do (uniqueFactKeys).
    if (!same || documentOf(same) === documentOf(candidate)) {
      if (!same) kept.set(clinicalKey(candidate), candidate);
      return true;
    }
    alsoFrom.set(same, [...(alsoFrom.get(same) ?? []), candidate]);
    return false;
  });
  return { candidates, alsoFrom };
}

/** What folding and keying read of a candidate (the whole-source normalization's, or a paged one's bookkeeping). */
export type FoldableCandidate = { clinicalKey: string; origin?: DocumentOrigin; resourceId: string | null };

export const CONTEXT_REASON = "not one of the ten categories; read only where other resources reference it";

export function normalizeSafely(
  resourceType: string,
  resource: Json,
  normalizer: ResourceNormalizer,
  context: NormalizeContext,
  placeholders: PlaceholderPaths,
): DraftOutcome {
  if (isEnteredInError(resource)) return { skipReason: `${resourceType} is entered-in-error` };
  try {
    const noted = placeholderWarnings(resource, placeholders, context.resolve);
    const outcome = normalizer(resource, { ...context, resolve: noted.resolve });
    return "skipReason" in outcome ? outcome : { ...outcome, warnings: [...(outcome.warnings ?? []), ...noted.warnings()] };
  } catch (error) {
    // The readers are written not to throw; this keeps one unforeseen shape from failing a whole import.
    return { skipReason: `${resourceType} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function isEnteredInError(resource: Json): boolean {
  return code(resource.status) === ENTERED_IN_ERROR || firstCode(resource.verificationStatus) === ENTERED_IN_ERROR;
}

/**
 * The factKey of each candidate. Two distinct resources of one source must never share a key, so when clinical
 * content alone collides, the key also takes a digest of the whole normalized record (still source-independent:
 * two sources sending the same pair still agree), and only when even that collides, the resource's own id (and,
 * for resources repeated under one id, their order). `keyOf` writes a candidate's key with extra parts after its
 * own; `digestOf` is asked only for candidates whose clinical content collides.
 */
export function uniqueFactKeys<C extends FoldableCandidate>(
  candidates: C[],
  keyOf: (candidate: C, extraParts: KeyPart[]) => string,
  digestOf: (candidate: C) => string,
): Map<C, string> {
  const keys = new Map<C, string>();
  const byClinicalKey = groupBy(candidates, ({ clinicalKey }) => clinicalKey);
  for (const group of byClinicalKey.values()) {
    if (group.length === 1) {
      const [only] = group as [C];
      keys.set(only, keyOf(only, []));
      continue;
    }
    for (const [digest, sameContent] of groupBy(group, digestOf)) {
      const idsAreUnique = new Set(sameContent.map(({ resourceId }) => resourceId)).size === sameContent.length;
      sameContent.forEach((candidate, ordinal) => {
        const parts: KeyPart[] = [`data:${digest}`];
        if (sameContent.length > 1) parts.push(`resource:${candidate.resourceId ?? ""}${idsAreUnique ? "" : `#${ordinal}`}`);
        keys.set(candidate, keyOf(candidate, parts));
      });
    }
  }
  return keys;
}

/** The digest uniqueFactKeys adds to the keys of colliding facts: of the draft's data, as the normalizer built it. */
export function contentDigest(draft: RecordDraft): string {
  return sha256Hex(JSON.stringify(draft.data)).slice(0, 16);
}

export function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
