import type { FhirResource } from "fhir/r4";
import { pgPool } from "@/lib/db";
import type { Category } from "@/lib/records";
import type { DateBound, TokenFilter } from "./search-query";

/** Where the FHIR view names the health systems a resource came from (meta.tag), and its first one (meta.source). */
export const SOURCE_TAG_SYSTEM = "https://chartkey.dev/fhir/source";

/** What the FHIR view may read of one subject now: the record categories, and whether context resources too. */
export type ServedScope = { subjectId: string; categories: readonly Category[]; types: readonly string[] };

export type ServedFilter = {
  /** Served ids (`rec-...`, `ctx-...`, `u-...`). */
  ids?: readonly string[] | null;
  lastUpdated?: readonly DateBound[];
  date?: readonly DateBound[];
  tokens?: readonly TokenFilter[];
};

type ServedRow = { resource: string; version: number; updatedAt: Date; sources: { sourceId: string; refs: { sourceId: string; sourceName?: string }[] }[] | null; sourceId: string | null; sourceName: string | null };

const OPERATORS = { ge: ">=", gt: ">", le: "<=", lt: "<" } as const;

/**
 * The subject's resources the scope covers and the filter selects, as one union of its records (their stored
 * resources, the first demographics record as the Patient) and its context resources, newest clinical time first
 * (context last), then id; with the count of all that match.
 */
function servedSql(scope: ServedScope, filter: ServedFilter): { text: string; values: unknown[] } {
  const values: unknown[] = [scope.subjectId, scope.categories, scope.types];
  const param = (value: unknown) => `$${values.push(value)}`;
  const where: string[] = [];
  if (filter.ids) where.push(`s."id" = ANY(${param(filter.ids)}::text[])`);
  for (const bound of filter.lastUpdated ?? []) where.push(`s."updatedAt" ${OPERATORS[bound.op]} ${param(bound.at.toISOString())}::timestamptz`);
  for (const bound of filter.date ?? []) where.push(`(s."kind" = 'record' AND s."sortAt" ${OPERATORS[bound.op]} (${param(bound.at.toISOString())}::timestamptz AT TIME ZONE 'UTC'))`);
  for (const token of filter.tokens ?? []) {
    const alternatives = token.values.map(({ system, code }) => {
      const vars = param(JSON.stringify(system === null ? { code } : { code, system }));
      const test = token.path.kind === "code" ? `@ == $code` : system === null ? `@.code == $code` : system === "" ? `@.code == $code && !exists(@.system)` : `@.code == $code && @.system == $system`;
      const at = token.path.kind === "codeable" ? `${token.path.path}.coding` : token.path.path;
      return `jsonb_path_exists(s."resource"::jsonb, ${param(`${at} ? (${test})`)}::jsonpath, ${vars}::jsonb)`;
    });
    where.push(`(${alternatives.join(" OR ")})`);
  }
  const text = `
    SELECT * FROM (
      SELECT 'record' AS "kind", r."resource"->>'id' AS "id", r."resource"->>'resourceType' AS "type", r."resource"::text AS "resource",
             r."version", r."updatedAt" AT TIME ZONE 'UTC' AS "updatedAt", r."sortAt", r."sources", NULL AS "sourceId", NULL AS "sourceName"
      FROM "Record" r
      WHERE r."subjectId" = $1 AND r."deletedAt" IS NULL AND r."resource" IS NOT NULL AND r."category" = ANY($2::text[])
        AND r."resource"->>'resourceType' = ANY($3::text[])
        AND (r."category" <> 'demographics' OR r."id" = (
          SELECT min(d."id") FROM "Record" d
          WHERE d."subjectId" = $1 AND d."category" = 'demographics' AND d."deletedAt" IS NULL AND d."resource" IS NOT NULL))
      UNION ALL
      SELECT 'context', c."id", c."resourceType", c."resource"::text, c."version", c."updatedAt" AT TIME ZONE 'UTC', '1970-01-01'::timestamp, NULL, c."sourceId",
             (SELECT p."name" FROM "Source" so JOIN "Provider" p ON p."id" = so."providerId" WHERE so."id" = c."sourceId")
      FROM "FhirContext" c
      WHERE c."subjectId" = $1 AND c."resourceType" = ANY($3::text[]) AND cardinality($2::text[]) > 0
    ) s
    ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}`;
  return { text, values };
}

/** One page of what servedSql selects, and how many match in all. */
export async function readServed(scope: ServedScope, filter: ServedFilter, page: { offset: number; count: number }): Promise<{ resources: FhirResource[]; total: number }> {
  if (scope.types.length === 0) return { resources: [], total: 0 };
  const { text, values } = servedSql(scope, filter);
  const pool = pgPool();
  const [counted, paged] = await Promise.all([
    pool.query<{ total: number }>(`SELECT count(*)::int AS "total" FROM (${text}) AS matched`, values),
    page.count === 0
      ? Promise.resolve({ rows: [] as ServedRow[] })
      : pool.query<ServedRow>(`${text} ORDER BY s."sortAt" DESC, s."id" DESC OFFSET ${Math.max(0, Math.floor(page.offset))} LIMIT ${Math.floor(page.count)}`, values),
  ]);
  return { resources: paged.rows.map(servedResource), total: counted.rows[0]!.total };
}

/**
 * The stored resource with the FHIR view's meta: versionId and lastUpdated (they move exactly when the record
 * does), `source` the first contributing health system and one tag per contributing health system.
 */
export function servedResource(row: ServedRow): FhirResource {
  const resource = JSON.parse(row.resource) as FhirResource & { meta?: Record<string, unknown> };
  const sources = new Map<string, string | undefined>();
  for (const contribution of row.sources ?? []) for (const ref of contribution.refs) if (!sources.has(ref.sourceId)) sources.set(ref.sourceId, ref.sourceName);
  for (const contribution of row.sources ?? []) if (!sources.has(contribution.sourceId)) sources.set(contribution.sourceId, undefined);
  if (row.sourceId) sources.set(row.sourceId, row.sourceName ?? undefined);
  const tags = [...sources].map(([code, display]) => ({ system: SOURCE_TAG_SYSTEM, code, ...(display ? { display } : {}) }));
  const kept = (resource.meta?.tag as unknown[] | undefined) ?? [];
  const first = [...sources.keys()][0];
  resource.meta = {
    ...resource.meta,
    versionId: String(row.version),
    lastUpdated: new Date(row.updatedAt).toISOString(),
    ...(first ? { source: `urn:chartkey:source:${first}` } : {}),
    ...(kept.length + tags.length > 0 ? { tag: [...kept, ...tags] } : {}),
  } as never;
  return resource;
}

/** Which subject a served id's resource belongs to (a record's or a context resource's), if any. */
export async function subjectOfServedId(id: string): Promise<string | null> {
  const recordId = id.replace(/^rec-/, "rec_");
  const { rows } = await pgPool().query<{ subjectId: string }>(
    `SELECT "subjectId" FROM "Record" WHERE "id" = $1 AND "deletedAt" IS NULL UNION ALL SELECT "subjectId" FROM "FhirContext" WHERE "id" = $2 LIMIT 1`,
    [recordId, id],
  );
  return rows[0]?.subjectId ?? null;
}
