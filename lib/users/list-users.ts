import type { KeyAuth } from "@/lib/auth";
import { db } from "@/lib/db";
import { decodeCursor, encodeCursor, type CursorBinding, type ListEnvelope } from "@/lib/http";

type UserPosition = { g: string; r: string };

export type UserSummary = { id: string; receiptId: string; categories: string[]; connectedAt: string; expiresAt: string };

/**
 * GET /users: subjects that share records with the key's application and environment now (an active, unexpired
 * receipt), newest receipt first. `cursor` resumes after a position; `offset` is the legacy way to skip.
 */
export async function listUsers(
  key: KeyAuth,
  page: { limit: number; cursor?: string; offset?: number },
  now = new Date(),
): Promise<ListEnvelope<UserSummary>> {
  const binding: CursorBinding = { endpoint: "users", applicationId: key.application.id, environment: key.environment };
  const after = page.cursor ? decodeCursor<UserPosition>(page.cursor, binding) : null;
  const afterAt = after ? new Date(after.g) : null;
  const rows = await db().consentReceipt.findMany({
    where: {
      applicationId: key.application.id,
      environment: key.environment,
      status: "active",
      expiresAt: { gt: now },
      ...(after && afterAt ? { OR: [{ grantedAt: { lt: afterAt } }, { grantedAt: afterAt, id: { lt: after.r } }] } : {}),
    },
    orderBy: [{ grantedAt: "desc" }, { id: "desc" }],
    skip: after ? 0 : (page.offset ?? 0),
    take: page.limit + 1,
    select: { id: true, subjectId: true, categories: true, grantedAt: true, expiresAt: true },
  });
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  const hasMore = rows.length > page.limit;
  return {
    data: shown.map((row) => ({
      id: row.subjectId,
      receiptId: row.id,
      categories: row.categories,
      connectedAt: row.grantedAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    })),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(binding, { g: last.grantedAt.toISOString(), r: last.id } satisfies UserPosition) : null,
  };
}
