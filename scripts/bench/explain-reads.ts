import pg from "pg";
import { CATEGORIES } from "@/lib/records";
import { consentedSections, SECTION_RECORDS } from "@/lib/users";

/**
 * EXPLAIN (ANALYZE, BUFFERS, SERIALIZE) of the statements a category page and a snapshot run for one subject of the
 * dataset: the consent and the records in one statement (lib/users/consented-sections.ts). SERIALIZE, on PostgreSQL
 * 17 and later (an older server explains without it), counts what sending the rows costs the server (a record's
 * json is sent as stored; jsonb was rebuilt as text on every read), which ANALYZE alone leaves out. The platform
 * sends it as a named prepared statement, so PostgreSQL plans it afresh for a connection's first five executions and
 * then, when its generic plan costs no more, reuses that plan without planning: the statement is run as the platform
 * runs it until the plan cache has chosen, the choice is reported, and the plan explained is the one chosen (a plain
 * EXPLAIN would show planning no served page pays).
 */
export async function explainRecordReads(url: string, subject: { applicationId: string; subjectId: string }): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: apps } = await client.query<{ categoryAllowlist: string[] }>(`SELECT "categoryAllowlist" FROM "Application" WHERE id = $1`, [subject.applicationId]);
    const scope = { ...subject, environment: "sandbox" as const };
    const { rows: version } = await client.query<{ number: string }>("SELECT current_setting('server_version_num') AS number");
    const options = Number(version[0]!.number) >= 170000 ? "ANALYZE, BUFFERS, SERIALIZE" : "ANALYZE, BUFFERS";
    const plans: string[] = [];
    for (const [read, label, categories, limit, sources] of [
      ["page", "GET /users/{subject}/records/labs?limit=50", ["labs"], 50, false],
      ["snapshot", "GET /users/{subject}/records (the snapshot's sections and sources)", CATEGORIES, SECTION_RECORDS, true],
    ] as const) {
      const query = consentedSections(scope, apps[0]?.categoryAllowlist ?? [], categories, limit, { sources });
      // A name of its own per read, so each read's executions are counted apart (the platform's two share one).
      const named = `${query.name}-explained-${read}`;
      const executions = 8;
      for (let run = 0; run < executions; run++) await client.query({ name: named, text: query.text, values: query.values });
      const { rows: cached } = await client.query<{ generic: string; custom: string }>(
        `SELECT generic_plans::text AS "generic", custom_plans::text AS "custom" FROM pg_prepared_statements WHERE name = $1`,
        [named],
      );
      const generic = Number(cached[0]?.generic ?? 0) > 0;
      // The same statement prepared in SQL, its parameters as literals (EXPLAIN EXECUTE takes no bound parameters),
      // under the plan the cache chose for the platform's.
      const parameters = (query.values ?? []).map((value) => sqlLiteral(client, value)).join(", ");
      await client.query(`SET plan_cache_mode = ${generic ? "force_generic_plan" : "force_custom_plan"}`);
      await client.query(`PREPARE "explained" AS ${query.text}`);
      // Executed once first, so a generic plan is built and cached before it is explained, as a served page finds it.
      await client.query(`EXECUTE "explained"(${parameters})`);
      const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (${options}) EXECUTE "explained"(${parameters})`);
      await client.query(`DEALLOCATE "explained"; RESET plan_cache_mode`);
      const choice = `${executions} executions of the prepared statement on one connection: ${cached[0]?.custom ?? "?"} planned for their parameters, ${cached[0]?.generic ?? "?"} by the cached generic plan (explained below: ${generic ? "generic" : "planned per execution"})`;
      plans.push(`-- ${label}\n-- ${choice}\n${rows.map((row) => row["QUERY PLAN"]).join("\n")}`);
    }
    return plans.join("\n\n");
  } finally {
    await client.end();
  }
}

/** A statement parameter (text, a number or a text array, as consentedSections binds them) as an SQL literal. */
function sqlLiteral(client: pg.Client, value: unknown): string {
  if (value === null) return "NULL";
  if (Array.isArray(value)) return client.escapeLiteral(`{${value.map((item) => `"${String(item).replace(/[\\"]/g, "\\$&")}"`).join(",")}}`);
  return client.escapeLiteral(String(value));
}
