import type { KeyAuth } from "@/lib/auth";
import { ApiError } from "@/lib/http";
import type { ApplicationContext } from "./application-context";

export type DashboardApplication = ApplicationContext["application"];

/**
 * The identity the dashboard's sandbox screens act with: the application's sandbox environment, exactly as one of
 * its sandbox keys would (the same domain functions the API routes call), without creating or storing a key. Only
 * ever built from an application `requireApplication` returned, so it reaches that application's data alone. A
 * suspended application is refused as the API refuses it.
 */
export function dashboardSandboxAuth(application: DashboardApplication): KeyAuth {
  if (application.status === "suspended") throw new ApiError("app_suspended", "This application is suspended; the sandbox is unavailable.");
  return {
    kind: "key",
    apiKeyId: "dashboard",
    environment: "sandbox",
    conformanceRunId: null,
    application: {
      id: application.id,
      name: application.name,
      status: application.status,
      productionEnabled: application.productionEnabled,
      categoryAllowlist: application.categoryAllowlist,
      syncMode: application.syncMode,
    },
  };
}
