import type { IdPrefix } from "@/lib/ids";
import type { SampleEventType } from "./schemas";

/** An identifier shaped like a real one (prefix + 24 base62) but naming nothing: looked up, it is a 404, never a patient. */
function sampleId(prefix: IdPrefix): string {
  return `${prefix}${"sample".padEnd(24, "0")}`;
}
const SUBJECT = sampleId("u_");
const RECEIPT = sampleId("cr_");
const SOURCE = sampleId("src_");
const IMPORT = sampleId("imp_");

/**
 * The `data` of a sample event: the shape the real event of that type carries (lib/connect, lib/consent,
 * lib/imports), with `sample: true` so a receiver can tell it from a real one and ignore it in production.
 */
export function sampleEventData(type: SampleEventType, now = new Date()): Record<string, unknown> {
  const expiresAt = new Date(now.getTime() + 365 * 86_400_000).toISOString();
  switch (type) {
    case "webhook.test":
      return { message: "This is a test event from Chartkey." };
    case "consent.granted":
      return { sample: true, sessionId: sampleId("cs_"), subject: SUBJECT, receiptId: RECEIPT, categories: ["labs", "medications"], expiresAt };
    case "consent.revoked":
      return { sample: true, subject: SUBJECT, receiptId: RECEIPT, categories: ["labs", "medications"], reason: "patient" };
    case "consent.expired":
      return { sample: true, subject: SUBJECT, receiptId: RECEIPT, categories: ["labs", "medications"] };
    case "records.updated":
      return { sample: true, subject: SUBJECT, sourceId: SOURCE, providerId: "riverbend-health", importId: IMPORT, categories: ["labs"], upserts: 3, deletes: 1 };
    case "sync.failed":
      return { sample: true, subject: SUBJECT, sourceId: SOURCE, providerId: "riverbend-health", importId: IMPORT, code: "source_unavailable" };
    case "subject.deleted":
      return { sample: true, subject: SUBJECT, receiptId: RECEIPT, deletedAt: now.toISOString(), reason: "patient" };
  }
}
