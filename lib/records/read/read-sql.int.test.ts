import { describe, expect, it } from "vitest";
import { pgPool } from "@/lib/db";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { readCategoryPage } from "./category-page";
import { sectionPageAfter } from "./read-sql";

type PlanNode = { "Node Type": string; "Index Name"?: string; "Index Cond"?: string; Filter?: string; Plans?: PlanNode[] };

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe("a later category page", () => {
  it("starts its index scan at the position: the (sortAt, id) comparison is the scan's key, not a filter", async () => {
    const { application } = await createTestApplication();
    const subject = await createTestSubject(application.id);
    // 300 labs, three to a timestamp, so the position's id decides ties.
    await pgPool().query(
      `INSERT INTO "Record" ("id", "subjectId", "category", "factKey", "data", "contentHash", "sources", "sortAt", "updatedAt")
       SELECT 'rec_' || lpad(i::text, 4, '0'), $1, 'labs', 'k' || i, json_build_object('n', i), 'h', '[]'::jsonb,
         timestamp '2020-01-01' + (i / 3) * interval '1 day', now()
       FROM generate_series(1, 300) AS i`,
      [subject.id],
    );

    const first = await readCategoryPage(subject.id, "labs", 50, null);
    const second = await readCategoryPage(subject.id, "labs", 50, first.next);
    expect((JSON.parse(first.records.text) as { n: number }[]).map((record) => record.n)).toEqual(Array.from({ length: 50 }, (_, i) => 300 - i));
    expect((JSON.parse(second.records.text) as { n: number }[]).map((record) => record.n)).toEqual(Array.from({ length: 50 }, (_, i) => 250 - i));

    // A table this small may be read whole; the plan that matters is the index scan a large one gets.
    const client = await pgPool().connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      await client.query("SET LOCAL enable_bitmapscan = off");
      const query = sectionPageAfter(subject.id, "labs", 51, { at: first.next!.s, id: first.next!.i });
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
      await client.query("ROLLBACK");
      const scan = nodes(rows[0]!["QUERY PLAN"][0].Plan).find((node) => node["Index Name"] === "Record_subjectId_category_sortAt_id_idx");
      expect(scan?.["Node Type"]).toBe("Index Scan");
      expect(scan?.["Index Cond"]).toMatch(/ROW\("sortAt", id\) < ROW\(/);
      expect(scan?.Filter ?? "").not.toMatch(/sortAt/);
    } finally {
      client.release();
    }
  });
});
