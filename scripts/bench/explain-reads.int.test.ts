import { describe, expect, it } from "vitest";
import { sharingSubject } from "@/test/records";
import { explainRecordReads } from "./explain-reads";

describe("the bench's EXPLAIN of a records read", () => {
  it("runs the platform's statement until the plan cache chooses, and explains the plan it chose", async () => {
    const { application, subject } = await sharingSubject();
    const explained = await explainRecordReads(process.env.DATABASE_URL!, { applicationId: application.id, subjectId: subject.id });
    const [page, snapshot] = explained.split("\n\n");
    for (const [plan, label] of [
      [page, "-- GET /users/{subject}/records/labs?limit=50"],
      [snapshot, "-- GET /users/{subject}/records (the snapshot's sections)"],
    ] as const) {
      const lines = plan!.split("\n");
      expect(lines[0]).toBe(label);
      // Five executions planned for their parameters, then the cached generic plan (what the platform's pages pay).
      expect(lines[1]).toBe("-- 8 executions of the prepared statement on one connection: 5 planned for their parameters, 3 by the cached generic plan (explained below: generic)");
      expect(plan).toMatch(/Index Scan using "Record_subjectId_category_sortAt_id_idx"/);
      expect(plan).toMatch(/Serialization: time=[\d.]+ ms {2}output=\d+kB/);
      expect(plan).toMatch(/Execution Time: [\d.]+ ms/);
      // The plan explained is the generic one: its parameters stay parameters rather than the subject's id.
      expect(plan).not.toContain(subject.id);
      expect(plan).toMatch(/"subjectId" = \$1/);
    }
  });
});
