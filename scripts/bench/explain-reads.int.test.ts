import { describe, expect, it } from "vitest";
import { pgPool } from "@/lib/db";
import { sharingSubject } from "@/test/records";
import { explainRecordReads } from "./explain-reads";

describe("the bench's EXPLAIN of a records read", () => {
  it("runs the platform's statement until the plan cache chooses, and explains the plan it chose", async () => {
    const { application, subject } = await sharingSubject();
    const serverVersion = Number((await pgPool().query<{ number: string }>("SELECT current_setting('server_version_num') AS number")).rows[0]!.number);
    const explained = await explainRecordReads(process.env.DATABASE_URL!, { applicationId: application.id, subjectId: subject.id });
    const [page, snapshot] = explained.split("\n\n");
    for (const [plan, label] of [
      [page, "-- GET /users/{subject}/records/labs?limit=50"],
      [snapshot, "-- GET /users/{subject}/records (the snapshot's sections and sources)"],
    ] as const) {
      const lines = plan!.split("\n");
      expect(lines[0]).toBe(label);
      // Five executions planned for their parameters, then the plan cache's choice for the other three.
      const choice = /^-- 8 executions of the prepared statement on one connection: (\d) planned for their parameters, (\d) by the cached generic plan \(explained below: (generic|planned per execution)\)$/.exec(lines[1]!);
      expect(choice, lines[1]).not.toBeNull();
      const generic = choice![3] === "generic";
      expect([Number(choice![1]), Number(choice![2])]).toEqual(generic ? [5, 3] : [8, 0]);
      expect(plan).toMatch(/Index Scan using "Record_subjectId_category_sortAt_id_idx"/);
      expect(plan).toMatch(/Execution Time: [\d.]+ ms/);
      if (serverVersion >= 170000) expect(plan).toMatch(/Serialization: time=[\d.]+ ms {2}output=\d+kB/);
      else expect(plan).not.toMatch(/Serialization/);
      // The plan explained is the one chosen: a generic plan keeps its parameters, a custom one has the subject's id.
      if (generic) {
        expect(plan).not.toContain(subject.id);
        expect(plan).toMatch(/"subjectId" = \$1/);
      } else expect(plan).toContain(subject.id);
    }
  });
});
