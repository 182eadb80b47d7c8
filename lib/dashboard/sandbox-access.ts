import type { KeyAuth } from "@/lib/auth";
import { ApiError } from "@/lib/http";
import { dashboardSandboxAuth } from "@/lib/simulation";
import { requirePermission, type ApplicationAccess } from "@/lib/team";

/** What the sandbox functions need of the caller: its role on the application and the application. */
export type SandboxAccess = Pick<ApplicationAccess, "role" | "application">;

/**
 * The application's sandbox for a caller who may use it (`sandbox.use`, ForbiddenError otherwise): the KeyAuth the
 * sandbox operations take, as a sandbox key of the application would be. A suspended application is refused as the
 * API refuses it (403 `app_suspended`).
 */
export function dashboardSandbox(access: SandboxAccess): KeyAuth {
  requirePermission(access, "sandbox.use");
  if (access.application.status === "suspended") throw new ApiError("app_suspended", "This application is suspended; its sandbox is unavailable.");
  return dashboardSandboxAuth(access.application);
}
