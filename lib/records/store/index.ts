export { applySerializedFacts, applySourceFacts, type ApplyOutcome, type SerializedSourceFacts, type SourceFacts } from "./apply-source-facts";
export { canonicalJson, contentHash, hashedJson } from "./content-hash";
export { inReadOrder } from "./read-order";
export { recordSortAt, UNDATED_SORT_AT } from "./sort-time";
