// Conformance runs: the phases a run drives against an application's integration, the checks graded from what it
// observed, and the public reports (docs/conformance.md).
export { advanceConformanceRun, cancelConformanceRun } from "./advance-run";
export { startConformanceRun } from "./create-run";
export { conformanceRunJob } from "./drive-run";
export { forceRunRateLimit } from "./forced-rate-limit";
export { conformanceRunsCycle } from "./lifecycle-cycle";
export * from "./limits";
export * from "./operations";
export { listApplicationRuns, listConformanceRuns, getConformanceRun } from "./read-runs";
export { findReport, getConformanceReport } from "./report";
export * from "./schemas";
