import { createHash } from "node:crypto";
import type { FhirResource } from "fhir/r4";
import pg from "pg";
import { pgPool } from "@/lib/db";
import { JsonText } from "@/lib/http";
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

type ServedRow = { type: string; id: string; resource: string; version: number; updatedAt: Date | string; sources: { sourceId: string; refs: { sourceId: string; sourceName?: string }[] }[] | null; sourceId: string | null; sourceName: string | null };

const pgTypes = pg.types;
const JSON_OID = pg.types.builtins.JSON;

const OPERATORS = { ge: ">=", gt: ">", le: "<=", lt: "<" } as const;

/**
 * A record's served id (its stored resource's id, lib/fhir/stored-resource.ts) from its columns, without parsing the
 * resource: the subject's Patient `u-<subject>` for the demographics record, `rec-<record>` for the others.
 */
const SERVED_RECORD_ID = `CASE WHEN r."category" = 'demographics' THEN regexp_replace(r."subjectId", '^u_', 'u-') ELSE regexp_replace(r."id", '^rec_', 'rec-') END`;

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
      // A path of one member (`$.category`) is tested on that member alone: `json -> 'category'` as jsonb costs a
      // third less than the whole resource as jsonb, and lax mode reads `$.coding` of it as `$.category.coding`.
      const member = /^\$\.([A-Za-z]+)$/.exec(token.path.path)?.[1];
      const root = member ? "$" : token.path.path;
      const at = token.path.kind === "codeable" ? `${root}.coding` : root;
      const value = member ? `(s."resource" -> ${param(member)}::text)::jsonb` : `s."resource"::jsonb`;
      return `jsonb_path_exists(${value}, ${param(`${at} ? (${test})`)}::jsonpath, ${vars}::jsonb)`;
    });
    where.push(`(${alternatives.join(" OR ")})`);
  }
  const text = `
    SELECT * FROM (
      SELECT 'record' AS "kind", ${SERVED_RECORD_ID} AS "id", r."resourceType" AS "type", r."resource",
             r."version", r."updatedAt" AT TIME ZONE 'UTC' AS "updatedAt", r."sortAt", r."sources", NULL AS "sourceId", NULL AS "sourceName"
      FROM "Record" r
      WHERE r."subjectId" = $1 AND r."deletedAt" IS NULL AND r."resource" IS NOT NULL AND r."category" = ANY($2::text[])
        AND r."resourceType" = ANY($3::text[])
        AND (r."category" <> 'demographics' OR r."id" = (
          SELECT min(d."id") FROM "Record" d
          WHERE d."subjectId" = $1 AND d."category" = 'demographics' AND d."deletedAt" IS NULL AND d."resource" IS NOT NULL))
      UNION ALL
      SELECT 'context', c."id", c."resourceType", c."resource", c."version", c."updatedAt" AT TIME ZONE 'UTC', '1970-01-01'::timestamp, NULL, c."sourceId",
             (SELECT p."name" FROM "Source" so JOIN "Provider" p ON p."id" = so."providerId" WHERE so."id" = c."sourceId")
      FROM "FhirContext" c
      WHERE c."subjectId" = $1 AND c."resourceType" = ANY($3::text[]) AND cardinality($2::text[]) > 0
    ) s
    ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}`;
  return { text, values };
}

/**
 * One page of what servedSql selects, and how many match in all: one statement, the total counted beside the page
 * (`count(*) OVER ()`, over every match before OFFSET and LIMIT); a count of its own only when the page holds nothing
 * (no page asked for, or a page beyond the last match).
 */
async function servedRows(scope: ServedScope, filter: ServedFilter, page: { offset: number; count: number }): Promise<{ rows: ServedRow[]; total: number }> {
  if (scope.types.length === 0) return { rows: [], total: 0 };
  const { text, values } = servedSql(scope, filter);
  const pool = pgPool();
  const offset = Math.max(0, Math.floor(page.offset));
  const rows =
    page.count === 0
      ? []
      : (await pool.query<ServedRow & { total: number }>(prepared(`SELECT s.*, count(*) OVER ()::int AS "total" FROM (${text}) s ORDER BY s."sortAt" DESC, s."id" DESC OFFSET $${values.length + 1} LIMIT $${values.length + 2}`, [...values, offset, Math.floor(page.count)]))).rows;
  const total = rows[0]?.total ?? (await pool.query<{ total: number }>(prepared(`SELECT count(*)::int AS "total" FROM (${text}) AS matched`, values))).rows[0]!.total;
  return { rows, total };
}

/** One page of the served resources the scope covers and the filter selects, and how many match in all. */
export async function readServed(scope: ServedScope, filter: ServedFilter, page: { offset: number; count: number }): Promise<{ resources: FhirResource[]; total: number }> {
  const { rows, total } = await servedRows(scope, filter, page);
  return { resources: rows.map(servedResource), total };
}

/** A served resource as the JSON text the answer splices in (servedText), with the type and id its entry names. */
export type ServedText = { resourceType: string; id: string; json: JsonText };

/** readServed's page as text: what a searchset serves without parsing each stored resource and serializing it again. */
export async function readServedText(scope: ServedScope, filter: ServedFilter, page: { offset: number; count: number }): Promise<{ resources: ServedText[]; total: number }> {
  const { rows, total } = await servedRows(scope, filter, page);
  return { resources: rows.map((row) => ({ resourceType: row.type, id: row.id, json: new JsonText(servedText(row)) })), total };
}

/**
 * A statement prepared once per connection under a name of its text: a search's statement differs only by the filters
 * and the page asked for, so a connection prepares a few (PostgreSQL's planning took as long as running a page).
 */
function prepared(text: string, values: unknown[]): pg.QueryConfig {
  return { name: `chartkey-fhir-${createHash("sha256").update(text).digest("base64url").slice(0, 22)}`, text, values, types: JSON_AS_TEXT };
}

/** Type parsers that leave `json` as the text PostgreSQL sent (a served resource is spliced as text, servedText). */
const JSON_AS_TEXT: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => (oid === JSON_OID ? (text: string) => text : pgTypes.getTypeParser(oid, format))) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * The stored resource with the FHIR view's meta: versionId and lastUpdated (they move exactly when the record
 * does), `source` the first contributing health system and one tag per contributing health system.
 */
export function servedResource(row: ServedRow): FhirResource {
  const resource = JSON.parse(row.resource) as FhirResource & { meta?: Record<string, unknown> };
  resource.meta = { ...resource.meta, ...servedMeta(row, (resource.meta?.tag as unknown[] | undefined) ?? []) } as never;
  return resource;
}

/** The FHIR view's members of a served resource's meta, after the tags its source sent (`kept`). */
function servedMeta(row: ServedRow, kept: unknown[]): Record<string, unknown> {
  const sources = contributingSources(row);
  const tags = [...sources].map(([code, display]) => ({ system: SOURCE_TAG_SYSTEM, code, ...(display ? { display } : {}) }));
  const first = [...sources.keys()][0];
  return {
    versionId: String(row.version),
    lastUpdated: new Date(row.updatedAt).toISOString(),
    ...(first ? { source: `urn:chartkey:source:${first}` } : {}),
    ...(kept.length + tags.length > 0 ? { tag: [...kept, ...tags] } : {}),
  };
}

/** The health systems a served resource came from, in the order its meta names them, with their names when known. */
function contributingSources(row: ServedRow): Map<string, string | undefined> {
  const sources = new Map<string, string | undefined>();
  for (const contribution of row.sources ?? []) for (const ref of contribution.refs) if (!sources.has(ref.sourceId)) sources.set(ref.sourceId, ref.sourceName);
  for (const contribution of row.sources ?? []) if (!sources.has(contribution.sourceId)) sources.set(contribution.sourceId, undefined);
  if (row.sourceId) sources.set(row.sourceId, row.sourceName ?? undefined);
  return sources;
}

const SOURCE_TAG_START = `{"system":${JSON.stringify(SOURCE_TAG_SYSTEM)},"code":`;

/** JSON.stringify(servedMeta(row, [])), written as text: an export writes it for every resource. */
function servedMetaText(row: ServedRow): string {
  let tags = "";
  let first: string | undefined;
  for (const [code, display] of contributingSources(row)) {
    first ??= code;
    tags += `${tags === "" ? "" : ","}${SOURCE_TAG_START}${JSON.stringify(code)}${display ? `,"display":${JSON.stringify(display)}` : ""}}`;
  }
  const source = !first ? "" : `,"source":${JSON.stringify(`urn:chartkey:source:${first}`)}`;
  // A string is already toISOString's form (the export's to_char): a Date is made of it only to be written again.
  const lastUpdated = typeof row.updatedAt === "string" ? row.updatedAt : row.updatedAt.toISOString();
  return `{"versionId":"${row.version}","lastUpdated":"${lastUpdated}"${source}${tags === "" ? "" : `,"tag":[${tags}]`}}`;
}

/**
 * servedResource's JSON text (what JSON.stringify writes of it), made without parsing the stored resource when it has
 * no `meta` of its own: the stored text is canonical JSON (JSON.stringify's), and servedResource then adds `meta` as
 * its last member, so the text is the stored one with `"meta":{...}` spliced in before its closing brace. A resource
 * that keeps meta from its source (profiles, tags), or holds the word anywhere, goes through servedResource.
 */
export function servedText(row: ServedRow): string {
  const stored = row.resource;
  if (stored.includes('"meta"') || stored.length < 2 || stored[stored.length - 1] !== "}") return JSON.stringify(servedResource(row));
  return `${stored.slice(0, -1)}${stored.length > 2 ? "," : ""}"meta":${servedMetaText(row)}}`;
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
