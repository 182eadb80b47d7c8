import { describe, expect, it } from "vitest";
import { runLifecycle } from "@/lib/jobs";
import { LIFECYCLE_CYCLES } from "@/scripts/platform-jobs";
import { db } from "@/lib/db";
import { createTestApplication, createTestSubject } from "@/test/factories";
import { expireReceiptNow, grantReceipt, revokeReceipt } from "./receipts";

describe("consent receipts", () => {
  it("a new receipt supersedes the subject's active one", async () => {
    const { application } = await createTestApplication();
    const subject = await createTestSubject(application.id);
    const first = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"] });
    const second = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs", "vitals"] });
    expect(await db().consentReceipt.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({ status: "revoked", revokedReason: "superseded" });
    expect(second.status).toBe("active");
    expect(second.expiresAt.getTime() - second.grantedAt.getTime()).toBe(365 * 24 * 60 * 60 * 1000);
  });

  it("revoking is immediate and happens once; consent.expire is marked expired by the lifecycle job's cycle", async () => {
    const { application } = await createTestApplication();
    const subject = await createTestSubject(application.id);
    const revoked = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"] });
    expect(await revokeReceipt(revoked.id, "patient")).toBe(true);
    expect(await revokeReceipt(revoked.id, "patient")).toBe(false);

    const expiring = await grantReceipt({ applicationId: application.id, environment: "sandbox", subjectId: subject.id, categories: ["labs"] });
    expect(await expireReceiptNow(expiring.id)).toBe(true);
    expect((await db().consentReceipt.findUniqueOrThrow({ where: { id: expiring.id } })).status).toBe("active");
    const outcomes = await runLifecycle(LIFECYCLE_CYCLES);
    expect(outcomes).toContainEqual({ name: "expire-consent-receipts", affected: 1 });
    expect(await db().consentReceipt.findUniqueOrThrow({ where: { id: expiring.id } })).toMatchObject({ status: "expired", expiredAt: expect.any(Date) });
  });
});
