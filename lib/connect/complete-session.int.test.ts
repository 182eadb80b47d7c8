import { describe, expect, it } from "vitest";
import { authenticateKey } from "@/lib/auth";
import { getConsentReceipt } from "@/lib/consent";
import { db } from "@/lib/db";
import { createTestApplication } from "@/test/factories";
import { cancelFromFlow, completeSession, sessionSubject } from "./complete-session";
import { createConnectSession } from "./create-session";
import { receiptForSession, receiptUrl } from "./flow-state";
import { linkToken } from "./link-tokens";
import { getConnectSession } from "./read-session";
import { receiptByLink, revokeByLink } from "./receipt-by-link";
import { sessionByLink } from "./session-by-link";

async function newSession(options: { externalUserId?: string; categories?: string[]; consentDays?: number } = {}) {
  const { sandboxKey, application } = await createTestApplication();
  const key = await authenticateKey(`Bearer ${sandboxKey}`);
  const session = await createConnectSession(key, { categories: options.categories ?? ["labs", "vitals", "medications"], ...options }, "https://ck.example");
  return { key, application, session };
}

async function another(key: Awaited<ReturnType<typeof authenticateKey>>, externalUserId?: string) {
  return createConnectSession(key, { categories: ["labs"], externalUserId }, "https://ck.example");
}

describe("completing a session", () => {
  it("creates the subject and receipt, keeps only the categories the patient kept, and stores consent.granted", async () => {
    const { key, application, session } = await newSession({ consentDays: 30 });
    expect((await sessionByLink(linkToken("session", session.id))).id).toBe(session.id);
    const { receipt, receiptToken, subjectId } = await completeSession(session.id, ["labs", "medications"]);
    expect(receipt.categories).toEqual(["medications", "labs"]);
    expect(Math.round((receipt.expiresAt.getTime() - receipt.grantedAt.getTime()) / 86_400_000)).toBe(30);

    const shown = await getConnectSession(key, session.id, "https://ck.example");
    expect(shown).toMatchObject({ status: "completed", subject: subjectId, receiptId: receipt.id, grantedCategories: ["medications", "labs"] });
    const events = await db().event.findMany({ where: { applicationId: application.id } });
    expect(events.map((event) => [event.type, event.id.startsWith("evt_")])).toEqual([["consent.granted", true]]);
    expect(JSON.stringify(events[0]!.data)).toContain(receipt.id);

    const page = await receiptByLink(receiptToken);
    expect(page).toMatchObject({ status: "active", categories: ["medications", "labs"] });
    // The application gets the same private page on the receipt resource, to offer "Manage sharing".
    const resource = await getConsentReceipt(key, receipt.id, (id) => receiptUrl("https://ck.example", id));
    expect(resource.receiptUrl).toBe(`https://ck.example/consent/${receiptToken}`);
    expect(await receiptForSession(session.id)).toMatchObject({ id: receipt.id, status: "active" });
    expect(await revokeByLink(receiptToken)).toBe(true);
    expect(await revokeByLink(receiptToken)).toBe(false);
    expect((await receiptByLink(receiptToken)).status).toBe("revoked");
    // The done page reads the receipt as of now, so a reopened link no longer says "you are sharing".
    expect(await receiptForSession(session.id)).toMatchObject({ id: receipt.id, status: "revoked" });
    expect((await db().event.findMany({ where: { applicationId: application.id } })).map((event) => event.type)).toEqual(["consent.granted", "consent.revoked"]);
  });

  it("refuses to complete with nothing kept, twice, after cancel, or after the link expired", async () => {
    const { key, session } = await newSession();
    await expect(completeSession(session.id, [])).rejects.toMatchObject({ code: "invalid_categories" });
    await expect(completeSession(session.id, ["claims"])).rejects.toMatchObject({ code: "invalid_categories" });
    await completeSession(session.id, ["labs"]);
    await expect(completeSession(session.id, ["labs"])).rejects.toMatchObject({ code: "session_completed" });

    const cancelled = await another(key);
    await cancelFromFlow(cancelled.id);
    await expect(completeSession(cancelled.id, ["labs"])).rejects.toMatchObject({ code: "session_completed" });

    const stale = await another(key);
    await db().connectSession.update({ where: { id: stale.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expect(sessionByLink(linkToken("session", stale.id))).rejects.toMatchObject({ code: "session_expired", status: 410 });
    await expect(completeSession(stale.id, ["labs"])).rejects.toMatchObject({ code: "session_expired" });
    await expect(sessionByLink("not-a-real-token")).rejects.toMatchObject({ code: "not_found" });
  });

  it("two completed sessions with the same externalUserId share the subject; the new receipt supersedes the old", async () => {
    const { key, session } = await newSession({ externalUserId: "user-7" });
    const first = await completeSession(session.id, ["labs"]);
    const again = await another(key, "user-7");
    const second = await completeSession(again.id, ["labs"]);
    expect(second.subjectId).toBe(first.subjectId);
    expect(await db().consentReceipt.findUniqueOrThrow({ where: { id: first.receipt.id } })).toMatchObject({ status: "revoked", revokedReason: "superseded" });
    const stranger = await another(key, "user-8");
    expect(await sessionSubject(stranger.id)).not.toBe(first.subjectId);
  });
});
