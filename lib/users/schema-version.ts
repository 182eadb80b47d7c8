/** Record responses carry schema version 2, the same record shapes as the demo (docs/contract.md, Versioning). */
export const SCHEMA_VERSION = 2 as const;
