/** Queue names shared by the code that sends jobs and the worker that runs them. */
export const QUEUE = {
  sourceImport: "source-import",
  sandboxSimulation: "sandbox-simulation",
  conformanceRun: "conformance-run",
  continuousSync: "continuous-sync",
} as const;
