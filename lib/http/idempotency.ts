import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/db";
import { newId } from "@/lib/ids";
import { ApiError } from "./api-error";
import { assertStorableHeader } from "./storable-text";

export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;
const RETENTION_MS = 24 * 60 * 60 * 1000;
const WAIT_FOR_FIRST_MS = 15_000;
const POLL_MS = 25;

export type IdempotencyScope = { applicationId: string; environment: "sandbox" | "live"; key: string };
export type StoredResponse = { status: number; body: unknown };
/** A first answer: `body` goes to the caller, `stored` (if given, else `body`) is kept for replays. */
export type CreatedResponse = StoredResponse & { stored?: unknown };

export function validateIdempotencyKey(raw: string | null): string | null {
  if (raw === null) return null;
  if (raw.length === 0 || raw.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new ApiError("invalid_idempotency_key", `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`);
  }
  assertStorableHeader("Idempotency-Key", raw);
  return raw;
}

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256").update(JSON.stringify([method, path, canonical(body)])).digest("hex");
}

/**
 * Runs `create` at most once per (application, environment, key). The first request claims the key with an insert
 * that the unique index serialises; concurrent duplicates wait for its stored response and replay it. A different
 * body under the same key is a conflict. A failed first attempt releases the key so the client can retry.
 */
export async function withIdempotency(
  scope: IdempotencyScope,
  fingerprint: string,
  create: () => Promise<CreatedResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claimId = await claim(scope, fingerprint);
    if (claimId) return { ...(await runClaimed(claimId, create)), replayed: false };

    const existing = await db().idempotencyRecord.findUnique({
      where: { applicationId_environment_key: { applicationId: scope.applicationId, environment: scope.environment, key: scope.key } },
    });
    if (!existing) continue; // the first attempt failed and released the key: claim it again
    if (existing.requestHash !== fingerprint) {
      throw new ApiError("idempotency_conflict", "This Idempotency-Key was already used with a different request (path or body).");
    }
    if (existing.state === "completed" && existing.responseStatus !== null) {
      return { status: existing.responseStatus, body: existing.responseBody, replayed: true };
    }
    if (Date.now() > deadline) {
      throw new ApiError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry later.");
    }
    await sleep(POLL_MS);
  }
}

async function claim(scope: IdempotencyScope, fingerprint: string): Promise<string | null> {
  const id = newId("idem_");
  const inserted = await db().$executeRaw`
    INSERT INTO "IdempotencyRecord" ("id", "applicationId", "environment", "key", "requestHash", "state", "createdAt", "expiresAt")
    VALUES (${id}, ${scope.applicationId}, ${scope.environment}::"Environment", ${scope.key}, ${fingerprint},
            'in_progress'::"IdempotencyState", now(), ${new Date(Date.now() + RETENTION_MS)})
    ON CONFLICT ("applicationId", "environment", "key") DO NOTHING`;
  return inserted === 1 ? id : null;
}

async function runClaimed(claimId: string, create: () => Promise<CreatedResponse>): Promise<StoredResponse> {
  let response: CreatedResponse;
  try {
    response = await create();
  } catch (error) {
    await db().idempotencyRecord.delete({ where: { id: claimId } }).catch(() => {});
    throw error;
  }
  await db().idempotencyRecord.update({
    where: { id: claimId },
    data: { state: "completed", responseStatus: response.status, responseBody: (response.stored ?? response.body) as Prisma.InputJsonValue },
  });
  return { status: response.status, body: response.body };
}

/** JSON with object keys sorted, so the same body with reordered keys is the same request. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
