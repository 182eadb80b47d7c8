import { db, type Prisma } from "@/lib/db";
import { unstorableCharacter } from "@/lib/http";
import type { AuditFilter } from "./schemas";

/** Whose entries: one application's (its members' Security page) or the whole deployment's (the operators'). */
export type AuditScope = { applicationId: string } | { deployment: true };

export type AuditEntryView = {
  id: string;
  createdAt: Date;
  action: string;
  actorType: string;
  actorId: string | null;
  actorLabel: string | null;
  address: string;
  applicationId: string | null;
  targetType: string;
  targetId: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

export type AuditPage = { entries: AuditEntryView[]; nextCursor: string | null };

const DAY_MS = 24 * 60 * 60 * 1000;

function where(scope: AuditScope, filter: AuditFilter): Prisma.AuditEntryWhereInput {
  const actor = filter.actor?.trim();
  return {
    ...("applicationId" in scope ? { applicationId: scope.applicationId } : {}),
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.actorType ? { actorType: filter.actorType } : {}),
    ...(actor ? { OR: [{ actorLabel: { contains: actor, mode: "insensitive" } }, { actorId: actor }] } : {}),
    ...(filter.from || filter.to
      ? { createdAt: { ...(filter.from ? { gte: new Date(`${filter.from}T00:00:00Z`) } : {}), ...(filter.to ? { lt: new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS) } : {}) } }
      : {}),
  };
}

/** Where a page ended: the last entry's time and id (newest first, so the next page is strictly older). */
function encodeCursor(entry: AuditEntryView): string {
  return Buffer.from(`${entry.createdAt.toISOString()}|${entry.id}`).toString("base64url");
}

// The cursor only positions a read inside the caller's own scope, so an edited one reads nothing it may not read;
// one that does not parse starts from the newest entry.
function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | null {
  if (!cursor) return null;
  const [time, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(time ?? "");
  // An edited cursor holding NUL names no entry (and PostgreSQL would refuse it): read from the start, as for any other.
  return id && !unstorableCharacter(id) && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : null;
}

function view(row: Prisma.AuditEntryGetPayload<object>): AuditEntryView {
  return { ...row, before: row.before as Record<string, unknown> | null, after: row.after as Record<string, unknown> | null };
}

/** One page of the scope's entries matching the filter, newest first, with the cursor of the next (older) page. */
export async function listAuditEntries(scope: AuditScope, filter: AuditFilter, page: { cursor?: string; limit?: number } = {}): Promise<AuditPage> {
  const limit = page.limit ?? 50;
  const after = decodeCursor(page.cursor);
  const rows = await db().auditEntry.findMany({
    where: {
      AND: [where(scope, filter), ...(after ? [{ OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] : [])],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const entries = rows.slice(0, limit).map(view);
  return { entries, nextCursor: rows.length > limit ? encodeCursor(entries.at(-1)!) : null };
}

/** Every entry of the scope matching the filter, newest first, read a batch at a time (for the export's stream). */
export async function* eachAuditEntry(scope: AuditScope, filter: AuditFilter, batch = 500): AsyncGenerator<AuditEntryView> {
  let cursor: string | undefined;
  do {
    const page = await listAuditEntries(scope, filter, { cursor, limit: batch });
    yield* page.entries;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
