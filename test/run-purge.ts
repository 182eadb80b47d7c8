// A purge in its own process, for the kill -9 test (lib/consent/purge-subject.int.test.ts): it purges the receipt
// named by PURGE_RECEIPT_ID a few rows per transaction, says after each batch what it has deleted so far, and stops
// once some records (not all) are gone, so the test kills it halfway through them.
import { setTimeout as sleep } from "node:timers/promises";
import { purgeSubjectData } from "@/lib/consent";

await purgeSubjectData(process.env.PURGE_RECEIPT_ID!, {
  batchRows: Number(process.env.PURGE_BATCH_ROWS ?? "5"),
  afterBatch: async (counts) => {
    console.log(`purge batch ${JSON.stringify(counts)}`);
    if (counts.Record > 0) await sleep(60_000);
  },
});
console.log("purge done");
