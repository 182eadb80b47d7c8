import { db, type Tx } from "@/lib/db";
import type { Environment } from "./api-key-format";

/** A key as the dashboard lists it: never its hash or secret. */
export type ApiKeySummary = {
  id: string;
  name: string;
  displayPrefix: string;
  environment: Environment;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** Set for a conformance run's key (listed only when asked for; the run revokes it). */
  conformanceRunId: string | null;
};

const summaryFields = {
  id: true,
  name: true,
  displayPrefix: true,
  environment: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  conformanceRunId: true,
} as const;

/**
 * The application's keys, newest first. Conformance run keys are left out unless `includeRunKeys`: the run owns
 * them and revokes them when it ends.
 */
export async function listApiKeys(applicationId: string, options: { includeRunKeys?: boolean } = {}): Promise<ApiKeySummary[]> {
  return db().apiKey.findMany({
    where: { applicationId, ...(options.includeRunKeys ? {} : { conformanceRunId: null }) },
    select: summaryFields,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** One key of the application, or null (a key id of another application is not found). */
export async function findApiKey(applicationId: string, keyId: string, tx: Tx = db()): Promise<ApiKeySummary | null> {
  return tx.apiKey.findFirst({ where: { id: keyId, applicationId }, select: summaryFields });
}

/**
 * Revokes one of the application's keys (idempotent: an already revoked key keeps its first revocation time).
 * Returns null when the application has no such key. Takes effect on the key's next request on every instance:
 * the admission statement checks `revokedAt`, and the `ApiKey` trigger's notification drops cached copies.
 */
export async function revokeApiKey(applicationId: string, keyId: string, now = new Date(), tx: Tx = db()): Promise<ApiKeySummary | null> {
  await tx.apiKey.updateMany({ where: { id: keyId, applicationId, revokedAt: null }, data: { revokedAt: now } });
  return findApiKey(applicationId, keyId, tx);
}
