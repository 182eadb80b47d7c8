import { db, Prisma } from "@/lib/db";
import { decodeCursor, encodeCursor } from "@/lib/http";
import { keyNames } from "./key-names";
import { recentRequestsFilterSchema, type RecentRequestsFilter, type StatusFilter } from "./schemas";

export type RecentRequest = {
  id: string;
  createdAt: Date;
  method: string;
  route: string;
  status: number;
  errorCode: string | null;
  requestId: string;
  latencyMs: number;
  environment: "sandbox" | "live" | null;
  apiKeyId: string | null;
  keyName: string | null;
  keyPrefix: string | null;
};

type Position = { createdAt: string; id: string };

function statusWhere(status: StatusFilter | undefined): Prisma.RequestLogWhereInput {
  if (status === undefined) return {};
  if (typeof status === "number") return { status };
  const floor = Number(status[0]) * 100;
  return { status: { gte: floor, lte: floor + 99 } };
}

/**
 * The application's request log, newest first, filterable by status and key, in keyset pages (createdAt, id): a
 * page never repeats or skips rows while new requests arrive. Cursors are signed and bound to the application.
 */
export async function recentRequests(input: RecentRequestsFilter & { applicationId: string }): Promise<{ items: RecentRequest[]; nextCursor: string | null }> {
  const filter = recentRequestsFilterSchema.parse(input);
  const binding = { endpoint: "dashboard.recent-requests", applicationId: input.applicationId, environment: "any" };
  const after = filter.cursor ? decodeCursor<Position>(filter.cursor, binding) : null;
  const rows = await db().requestLog.findMany({
    where: {
      applicationId: input.applicationId,
      ...statusWhere(filter.status),
      ...(filter.apiKeyId ? { apiKeyId: filter.apiKeyId } : {}),
      ...(filter.environment ? { environment: filter.environment } : {}),
      ...(after
        ? { OR: [{ createdAt: { lt: new Date(after.createdAt) } }, { createdAt: new Date(after.createdAt), id: { lt: BigInt(after.id) } }] }
        : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: filter.limit + 1,
  });
  const page = rows.slice(0, filter.limit);
  const names = await keyNames(input.applicationId, page.map((row) => row.apiKeyId));
  const items = page.map((row) => {
    const key = row.apiKeyId ? names.get(row.apiKeyId) : undefined;
    return {
      id: row.id.toString(),
      createdAt: row.createdAt,
      method: row.method,
      route: row.route,
      status: row.status,
      errorCode: row.errorCode,
      requestId: row.requestId,
      latencyMs: row.latencyMs,
      environment: row.environment,
      apiKeyId: row.apiKeyId,
      keyName: key?.name ?? null,
      keyPrefix: key?.displayPrefix ?? null,
    };
  });
  const last = page.at(-1);
  const nextCursor = rows.length > filter.limit && last ? encodeCursor<Position>(binding, { createdAt: last.createdAt.toISOString(), id: last.id.toString() }) : null;
  return { items, nextCursor };
}
