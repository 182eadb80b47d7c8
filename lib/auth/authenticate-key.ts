import { timingSafeEqual } from "node:crypto";
import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { hashApiKey, keyEnvironment, type Environment } from "./api-key-format";

export type KeyAuth = {
  kind: "key";
  apiKeyId: string;
  environment: Environment;
  conformanceRunId: string | null;
  application: {
    id: string;
    name: string;
    status: "sandbox" | "active" | "suspended";
    productionEnabled: boolean;
    categoryAllowlist: string[];
    syncMode: "one_time" | "continuous";
  };
};

// lastUsedAt is informational; writing it at most once a minute per key keeps it off the hot path.
const LAST_USED_WRITE_INTERVAL_MS = 60_000;
const lastUsedWrites = new Map<string, number>();

/** Reads `Authorization: Bearer <key>` and resolves the key exactly as the Authentication table of docs/contract.md says. */
export async function authenticateKey(authorization: string | null): Promise<KeyAuth> {
  const token = bearerToken(authorization);
  const environment = keyEnvironment(token);
  if (!environment) throw invalidKey();

  const secretHash = hashApiKey(token);
  const key = await db().apiKey.findUnique({ where: { secretHash }, include: { application: true } });
  // The lookup is by hash; the explicit constant-time comparison keeps the check honest if the lookup changes.
  if (!key || !timingSafeEqual(Buffer.from(key.secretHash), Buffer.from(secretHash))) throw invalidKey();
  if (key.revokedAt || key.environment !== environment) throw invalidKey();

  const application = key.application;
  if (application.status === "suspended") {
    throw new ApiError("app_suspended", "This application is suspended.");
  }
  if (environment === "live" && !application.productionEnabled) {
    throw new ApiError("production_not_enabled", "Production is not enabled for this application; use a sandbox key.");
  }

  touchLastUsed(key.id);
  return {
    kind: "key",
    apiKeyId: key.id,
    environment,
    conformanceRunId: key.conformanceRunId,
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

export function bearerToken(authorization: string | null): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match?.[1]) {
    throw new ApiError("missing_api_key", "Send your API key as `Authorization: Bearer <API_KEY>`.");
  }
  return match[1];
}

function invalidKey(): ApiError {
  return new ApiError("invalid_api_key", "The API key is unknown, revoked or malformed.");
}

function touchLastUsed(apiKeyId: string): void {
  const now = Date.now();
  if (now - (lastUsedWrites.get(apiKeyId) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
  lastUsedWrites.set(apiKeyId, now);
  void db()
    .apiKey.update({ where: { id: apiKeyId }, data: { lastUsedAt: new Date(now) } })
    .catch(() => lastUsedWrites.delete(apiKeyId));
}
