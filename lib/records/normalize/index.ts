/**
 * Module A of the shared contract: pure functions from FHIR R4 resources to normalized records of the ten
 * categories. See resources.ts for what is mapped and skipped, fact-key.ts for how facts are identified, and
 * docs/normalizer.md for the decisions behind both.
 */
export { CCDA_MAX_BYTES, isCcdaContentType } from "./ccda";
export { mergeFacts } from "./merge";
export { PagedNormalization, type SerializedContext, type SerializedFact } from "./paged-normalization";
export { memorySpool, type RecordSpool } from "./record-spool";
export { ENCOUNTER_SKIP, NORMALIZERS, normalizeBundle, normalizeResources } from "./resources";
export { resourceDisplayName } from "./names";
export { detached } from "./read";
export { eachLiteralReference } from "./references";
export { summarizeNormalization, type NormalizationCounts, type NormalizationSummary } from "./summary";
export type { NormalizationResult, NormalizedFact, SkippedResource, SourceInfo } from "./types";
