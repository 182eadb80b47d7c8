import { db, Prisma } from "@/lib/db";

/** Median and 99th percentile latency (ms, interpolated) of the application's requests since `since`; null without any. */
export async function latencyPercentiles(input: { applicationId: string; since: Date; apiKeyId?: string; environment?: "sandbox" | "live" }): Promise<{
  count: number;
  p50: number | null;
  p99: number | null;
}> {
  const key = input.apiKeyId ? Prisma.sql`AND "apiKeyId" = ${input.apiKeyId}` : Prisma.empty;
  const environment = input.environment ? Prisma.sql`AND "environment" = ${input.environment}::"Environment"` : Prisma.empty;
  const [row] = await db().$queryRaw<Array<{ count: bigint; p50: number | null; p99: number | null }>>`
    SELECT count(*) AS "count",
           percentile_cont(0.5) WITHIN GROUP (ORDER BY "latencyMs") AS "p50",
           percentile_cont(0.99) WITHIN GROUP (ORDER BY "latencyMs") AS "p99"
    FROM "RequestLog"
    WHERE "applicationId" = ${input.applicationId} AND "createdAt" >= ${input.since.toISOString()}::timestamp(3) ${key} ${environment}`;
  return { count: Number(row?.count ?? 0), p50: row?.p50 ?? null, p99: row?.p99 ?? null };
}
