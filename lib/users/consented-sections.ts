import pg from "pg";
import type { KeyAuth } from "@/lib/auth";
import { activeReceiptSelect, readAuthorization, readScope, receiptParams, receiptValues, type ReadAuthorization } from "@/lib/consent";
import { pgPool } from "@/lib/db";
import { RAW_COLUMNS, sectionsOf, sectionsSelect, sectionsValues, type Category, type PagePosition, type ReadScope, type SectionPage, type SectionRow } from "@/lib/records";
import { parseSources, subjectSourcesJson, type SourceRow } from "./sources-sql";

/**
 * A row of the statement: first the receipt's (its columns; a section row's all null, at position 0), then one per
 * section row (the receipt's columns null). The receipt is sent once, not beside each of a page's records: its
 * category array and times written out per row were about a fifth of PostgreSQL's CPU for a page of 50.
 */
type ConsentedRow = SectionRow & { receiptId: string | null; receiptCategories: string | null; expiresAt: string | null; grantedAt: string | null; sources: string | null };

/** What a read asks beyond its sections: a later page's position, the subject's sources (a snapshot's), the time. */
export type ConsentedReadOptions = { after?: { position: PagePosition; at: Date } | null; sources?: boolean; now?: Date };

const TEXT_ARRAY_OID = 1009;
const parseTextArray = (pg.types.getTypeParser as (oid: number) => (text: string) => string[])(TEXT_ARRAY_OID);
const parseTime = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;

/**
 * A read of a subject's records and the consent that allows it, in one statement (one round trip, one snapshot):
 * the active receipt exactly as authorizeSubjectRead finds it and, only under it, the first `limit` records of the
 * categories asked that both the receipt and the application's allowlist cover. No receipt: no row, and 404
 * `not_found`; a category neither covers is not read (the caller answers 403 for one it asked by name).
 */
export async function readConsentedSections(
  key: KeyAuth,
  subjectId: string,
  categories: readonly Category[],
  limit: number,
  options: ConsentedReadOptions = {},
): Promise<{ authorization: ReadAuthorization; sections: Map<Category, SectionPage>; sources: SourceRow[] }> {
  const scope = readScope(key, subjectId);
  const { rows } = await pgPool().query<ConsentedRow>(consentedSections(scope, key.application.categoryAllowlist, categories, limit, options));
  const [first, ...sectionRows] = rows;
  const receipt = first?.receiptId
    ? { id: first.receiptId, categories: parseTextArray(first.receiptCategories!), expiresAt: parseTime(first.expiresAt!), grantedAt: parseTime(first.grantedAt!) }
    : undefined;
  const authorization = readAuthorization(key, scope, receipt);
  return {
    authorization,
    sections: sectionsOf(sectionRows, authorization.categories.filter((category) => categories.includes(category)), limit),
    sources: first?.sources ? parseSources(first.sources) : [],
  };
}

/**
 * The statement of readConsentedSections (the bench explains it), fetching `limit + 1` records per category; asked
 * for the sources, the receipt's row carries them (subjectSourcesJson), read only when the receipt allows the read.
 */
export function consentedSections(
  scope: ReadScope,
  allowlist: readonly string[],
  categories: readonly Category[],
  limit: number,
  { after = null, sources = false, now = new Date() }: ConsentedReadOptions = {},
): pg.QueryConfig {
  const values = sectionsValues(scope.subjectId, categories, limit + 1, after && { at: after.at.toISOString(), id: after.position.i });
  const receipt = receiptParams(values.length + 1);
  const allowed = `$${values.length + 5}`;
  const covered = `ARRAY(SELECT x FROM unnest($2::text[]) WITH ORDINALITY AS u(x, o) WHERE x = ANY(rc.categories) AND x = ANY(${allowed}::text[]) ORDER BY o)`;
  return {
    // Each shape of the statement is prepared under a name of its own (a connection keeps one text per name).
    name: `chartkey-consented-${after ? "section-after" : "sections"}${sources ? "-sources" : ""}`,
    text: `WITH rc AS (${activeReceiptSelect(receipt)})
           SELECT rc.id AS "receiptId", rc.categories AS "receiptCategories",
                  rc."expiresAt" AT TIME ZONE 'UTC' AS "expiresAt", rc."grantedAt" AT TIME ZONE 'UTC' AS "grantedAt",
                  ${sources ? subjectSourcesJson("$1") : "NULL::json"} AS sources,
                  NULL AS category, 0 AS position, NULL AS "lastSequence", NULL AS id, NULL::json AS data, NULL::timestamptz AS "sortAt"
           FROM rc
           UNION ALL
           SELECT NULL, NULL, NULL, NULL, NULL, s.*
           FROM rc CROSS JOIN LATERAL (${sectionsSelect(covered, after !== null)}) s
           ORDER BY position, "sortAt" DESC, id DESC`,
    values: [...values, ...receiptValues(scope, now), [...allowlist]],
    types: RAW_COLUMNS,
  };
}
