import { db, Prisma } from "@/lib/db";
import { keyNames } from "./key-names";

const DAY_MS = 24 * 60 * 60 * 1000;

export type DailyKeyUsage = {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  apiKeyId: string | null;
  keyName: string | null;
  total: number;
  /** 4xx answers: the caller's mistakes (bad input, unknown subject, rate limited). */
  clientErrors: number;
  /** 5xx answers: ours. */
  serverErrors: number;
};

export type DailyTotal = { day: string; total: number; clientErrors: number; serverErrors: number; clientErrorRate: number; serverErrorRate: number };

/**
 * Requests per UTC day per key over the last `days` days (today included), for the usage chart. `days` lists every
 * day in the range, oldest first, so days without traffic show as zero; `totals` sums the keys per day with the
 * 4xx and 5xx rates reported apart (a spike of 4xx is the integration's problem, of 5xx ours).
 */
export async function requestsPerDay(input: { applicationId: string; days: number; now?: Date; environment?: "sandbox" | "live" }): Promise<{
  days: string[];
  rows: DailyKeyUsage[];
  totals: DailyTotal[];
}> {
  const now = input.now ?? new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: input.days }, (_, index) => new Date(today - (input.days - 1 - index) * DAY_MS).toISOString().slice(0, 10));
  const from = new Date(today - (input.days - 1) * DAY_MS).toISOString();
  const to = new Date(today + DAY_MS).toISOString();
  const environment = input.environment ? Prisma.sql`AND "environment" = ${input.environment}::"Environment"` : Prisma.empty;
  const grouped = await db().$queryRaw<Array<{ day: string; apiKeyId: string | null; total: bigint; clientErrors: bigint; serverErrors: bigint }>>`
    SELECT to_char("createdAt", 'YYYY-MM-DD') AS "day", "apiKeyId",
           count(*) AS "total",
           count(*) FILTER (WHERE "status" BETWEEN 400 AND 499) AS "clientErrors",
           count(*) FILTER (WHERE "status" >= 500) AS "serverErrors"
    FROM "RequestLog"
    WHERE "applicationId" = ${input.applicationId}
      AND "createdAt" >= ${from}::timestamp(3) AND "createdAt" < ${to}::timestamp(3) ${environment}
    GROUP BY 1, 2
    ORDER BY 1, 2`;
  const names = await keyNames(input.applicationId, grouped.map((row) => row.apiKeyId));
  const rows = grouped.map((row) => ({
    day: row.day,
    apiKeyId: row.apiKeyId,
    keyName: row.apiKeyId ? (names.get(row.apiKeyId)?.name ?? null) : null,
    total: Number(row.total),
    clientErrors: Number(row.clientErrors),
    serverErrors: Number(row.serverErrors),
  }));
  const totals = days.map((day) => {
    const sum = { total: 0, clientErrors: 0, serverErrors: 0 };
    for (const row of rows.filter((candidate) => candidate.day === day)) {
      sum.total += row.total;
      sum.clientErrors += row.clientErrors;
      sum.serverErrors += row.serverErrors;
    }
    const rate = (count: number) => (sum.total === 0 ? 0 : count / sum.total);
    return { day, ...sum, clientErrorRate: rate(sum.clientErrors), serverErrorRate: rate(sum.serverErrors) };
  });
  return { days, rows, totals };
}
