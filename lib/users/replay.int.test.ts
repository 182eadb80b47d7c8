import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { grantReceipt } from "@/lib/consent";
import { applySourceFacts, type NormalizedFact } from "@/lib/records";
import { createTestSubject } from "@/test/factories";
import { scenarioFacts, sharingSubject } from "@/test/records";
import { listCategoryRecords } from "./category-records";
import { listRecordChanges } from "./record-changes";

const CATEGORY = "labs";
const SOURCES = ["src_a", "src_b"] as const;

/** One import: which source, which of the facts it still has, and which of those it now reports differently. */
const importArbitrary = (factCount: number) =>
  fc.record({
    source: fc.constantFrom(...SOURCES),
    keep: fc.array(fc.boolean(), { minLength: factCount, maxLength: factCount }),
    edit: fc.array(fc.boolean(), { minLength: factCount, maxLength: factCount }),
    version: fc.integer({ min: 1, max: 3 }),
  });

type Import = { source: string; keep: boolean[]; edit: boolean[]; version: number };

function factsFor(all: NormalizedFact[], step: Import): NormalizedFact[] {
  return all.flatMap((fact, index) => {
    if (!step.keep[index]) return [];
    if (!step.edit[index]) return [fact];
    return [{ ...fact, record: { ...fact.record, status: `v${step.version}` } as NormalizedFact["record"] }];
  });
}

describe("replaying the change feed reproduces the store", () => {
  it("a snapshot plus the changes after its changeCursor equals the later snapshot, whatever the imports and page sizes", async () => {
    const { application, key } = await sharingSubject({ facts: false });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1_000_000 }).chain((seed) =>
          fc.record({
            seed: fc.constant(seed),
            before: fc.array(importArbitrary(8), { minLength: 0, maxLength: 3 }),
            after: fc.array(importArbitrary(8), { minLength: 1, maxLength: 4 }),
            pageSize: fc.integer({ min: 1, max: 5 }),
            feedSize: fc.integer({ min: 1, max: 5 }),
          }),
        ),
        async ({ before, after, pageSize, feedSize }) => {
          const subject = await createTestSubject(application.id);
          await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"] });
          const all = scenarioFacts(subject.id).filter((fact) => fact.category === CATEGORY).slice(0, 8);
          for (const step of before) await applySourceFacts({ subjectId: subject.id, sourceId: step.source, facts: factsFor(all, step) });

          const { records: local, changeCursor } = await readAll(subject.id, pageSize);
          for (const step of after) await applySourceFacts({ subjectId: subject.id, sourceId: step.source, facts: factsFor(all, step) });

          let cursor = changeCursor;
          for (;;) {
            const page = await listRecordChanges(key, subject.id, CATEGORY, { limit: feedSize, cursor });
            for (const change of page.data) {
              if (change.changeType === "delete") local.delete(change.recordId);
              else if (change.record) local.set(change.recordId, change.record);
            }
            cursor = page.nextCursor;
            if (!page.hasMore) break;
          }
          const { records: later } = await readAll(subject.id, pageSize);
          expect(Object.fromEntries(local)).toEqual(Object.fromEntries(later));
        },
      ),
      { numRuns: 25 },
    );

    async function readAll(subjectId: string, pageSize: number) {
      const records = new Map<string, unknown>();
      let cursor: string | undefined;
      let changeCursor: string | undefined;
      do {
        const page = await listCategoryRecords(key, subjectId, CATEGORY, { limit: pageSize, cursor });
        changeCursor ??= page.meta.changeCursor;
        for (const record of JSON.parse(page.data.text) as { recordId: string }[]) records.set(record.recordId, record);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return { records, changeCursor: changeCursor as string };
    }
  }, 120_000);
});
