import { triggerSandboxEvent, type SandboxEventResult } from "@/lib/simulation";
import { dashboardSandbox, type SandboxAccess } from "./sandbox-access";

/**
 * Applies one sandbox control to one of the application's synthetic users, as POST /sandbox/subjects/{subject}/events
 * does (404 `not_found` for any other subject, 409 `control_unsupported` for a control its scenario lacks).
 */
export async function triggerDashboardSandboxEvent(access: SandboxAccess, subjectId: string, type: string, source?: string): Promise<SandboxEventResult> {
  return triggerSandboxEvent(dashboardSandbox(access), subjectId, source === undefined ? { type } : { type, source });
}
