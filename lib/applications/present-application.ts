import type { KeyAuth } from "@/lib/auth";

/** The spec spells sync modes with a hyphen; the database enum cannot. */
export function syncModeName(mode: "one_time" | "continuous"): "one-time" | "continuous" {
  return mode === "one_time" ? "one-time" : "continuous";
}

/** GET /app: the application and environment the calling key resolves to. */
export function getApp(auth: KeyAuth) {
  const app = auth.application;
  return {
    object: "application",
    id: app.id,
    name: app.name,
    environment: auth.environment,
    status: app.status,
    categoryAllowlist: app.categoryAllowlist,
    syncMode: syncModeName(app.syncMode),
    productionEnabled: app.productionEnabled,
  };
}
