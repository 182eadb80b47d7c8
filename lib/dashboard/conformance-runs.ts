import { advanceConformanceRun, cancelConformanceRun, startConformanceRun, listApplicationRuns, getConformanceRun, type RunResource } from "@/lib/conformance";
import { DEFAULT_LIMIT } from "@/lib/http";
import { SCENARIOS } from "@/lib/sandbox";
import { dashboardSandbox, type SandboxAccess } from "./sandbox-access";

// The Conformance page acts through the same functions as POST/GET /conformance/runs, as the application's sandbox
// (dashboardSandbox: `sandbox.use`, a suspended application refused), so every rule and refusal is the API's.

/** The scenarios a run can play: the record scenarios, whose synthetic patient becomes the run's subject. */
export function conformanceScenarios() {
  return SCENARIOS.filter((scenario) => scenario.kind === "record").map((scenario) => ({ id: scenario.id, title: scenario.title, description: scenario.description }));
}

export function startDashboardRun(access: SandboxAccess, input: { scenario: string; syncMode: "one-time" | "continuous" }, origin: string) {
  return startConformanceRun(dashboardSandbox(access), { scenario: input.scenario, sync_mode: input.syncMode }, origin);
}

export function readDashboardRun(access: SandboxAccess, runId: string, origin: string): Promise<RunResource> {
  return getConformanceRun(dashboardSandbox(access), runId, origin);
}

export function advanceDashboardRun(access: SandboxAccess, runId: string, origin: string): Promise<RunResource> {
  return advanceConformanceRun(dashboardSandbox(access), runId, origin);
}

export function cancelDashboardRun(access: SandboxAccess, runId: string, origin: string): Promise<RunResource> {
  return cancelConformanceRun(dashboardSandbox(access), runId, origin);
}

/** The application's runs, newest first (the page's history). */
export async function dashboardRuns(applicationId: string, origin: string): Promise<RunResource[]> {
  return (await listApplicationRuns(applicationId, { limit: DEFAULT_LIMIT }, origin)).data;
}
