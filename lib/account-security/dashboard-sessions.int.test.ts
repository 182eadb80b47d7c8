import { describe, expect, it } from "vitest";
import { withAuditAddress } from "@/lib/audit";
import { db } from "@/lib/db";
import { createTestDeveloper } from "@/test/factories";
import { endDashboardSession, endOtherSessions, listDashboardSessions, liveDashboardSession, markSecondFactorGiven, startDashboardSession } from "@/lib/account-security";

const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const FIREFOX_WIN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0";
const SAFARI_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";

describe("dashboard sessions", () => {
  it("records the device and address, knows a new device (not at the account's first), and checks the owner", async () => {
    const developer = await createTestDeveloper();
    const other = await createTestDeveloper();
    const first = await startDashboardSession({ developerId: developer.id, userAgent: CHROME_MAC, address: "203.0.113.7", secondFactorPending: false });
    expect(first.newDevice).toBe(false);
    expect(first.session).toMatchObject({ device: "Chrome on macOS", address: "203.0.113.7", endedAt: null });
    const again = await startDashboardSession({ developerId: developer.id, userAgent: CHROME_MAC, address: "203.0.113.8", secondFactorPending: false });
    expect(again.newDevice).toBe(false);
    expect(first.newDevice || again.newDevice).toBe(false);
    expect((await startDashboardSession({ developerId: developer.id, userAgent: FIREFOX_WIN, address: "203.0.113.9", secondFactorPending: false })).newDevice).toBe(true);

    expect(await liveDashboardSession(first.session.id, developer.id)).toMatchObject({ id: first.session.id });
    expect(await liveDashboardSession(first.session.id, other.id)).toBeNull();
    expect(await liveDashboardSession("dss_unknown", developer.id)).toBeNull();
    expect(await liveDashboardSession(undefined, developer.id)).toBeNull();
    expect((await listDashboardSessions(developer.id)).map((session) => session.device).sort()).toEqual(["Chrome on macOS", "Chrome on macOS", "Firefox on Windows"]);
  });

  it("moves lastSeenAt on, at most once a minute", async () => {
    const developer = await createTestDeveloper();
    const { session } = await startDashboardSession({ developerId: developer.id, userAgent: CHROME_MAC, address: "203.0.113.7", secondFactorPending: false });
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await db().dashboardSession.update({ where: { id: session.id }, data: { lastSeenAt: longAgo } });
    await liveDashboardSession(session.id, developer.id);
    const seen = await db().dashboardSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(seen.lastSeenAt.getTime()).toBeGreaterThan(longAgo.getTime() + 5 * 60_000);
  });

  it("ends one session (audited with actor and address) and only the owner's; an ended session is signed out", async () => {
    const developer = await createTestDeveloper();
    const other = await createTestDeveloper();
    const { session } = await startDashboardSession({ developerId: developer.id, userAgent: CHROME_MAC, address: "203.0.113.7", secondFactorPending: false });
    expect(await endDashboardSession(other.id, session.id, "ended_by_owner")).toBe(false);
    expect(await withAuditAddress("198.51.100.4", () => endDashboardSession(developer.id, session.id, "ended_by_owner"))).toBe(true);
    expect(await endDashboardSession(developer.id, session.id, "ended_by_owner")).toBe(false);
    expect(await liveDashboardSession(session.id, developer.id)).toBeNull();
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: "auth.session_end", targetId: session.id } });
    expect(entry).toMatchObject({ actorType: "developer", actorId: developer.id, actorLabel: developer.email, address: "198.51.100.4", after: { reason: "ended_by_owner" } });
  });

  it("endOtherSessions keeps the one named (or none) and counts what it ended", async () => {
    const developer = await createTestDeveloper();
    const start = () => startDashboardSession({ developerId: developer.id, userAgent: CHROME_MAC, address: "203.0.113.7", secondFactorPending: false }).then((started) => started.session.id);
    const [keep, second, third] = [await start(), await start(), await start()];
    expect(await withAuditAddress("198.51.100.5", () => endOtherSessions(developer.id, keep, "password_changed"))).toBe(2);
    expect(await liveDashboardSession(keep, developer.id)).not.toBeNull();
    expect(await liveDashboardSession(second, developer.id)).toBeNull();
    expect(await liveDashboardSession(third, developer.id)).toBeNull();
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: "auth.session_end", targetId: developer.id } });
    expect(entry).toMatchObject({ address: "198.51.100.5", after: { reason: "password_changed", sessionsEnded: 2, kept: keep } });
    expect(await endOtherSessions(developer.id, null, "password_reset")).toBe(1);
    expect(await listDashboardSessions(developer.id)).toEqual([]);
    expect(await endOtherSessions(developer.id, null, "password_reset")).toBe(0);
  });

  it("signing out the row the Security page lists ends that browser's session alone, beside same-device and pending ones", async () => {
    // The browser test's account: this browser, a phone that gave its second factor, a laptop, and another browser of
    // the same kind as this one still waiting for its factor. The phone's row is found as the page finds it (by device).
    const developer = await createTestDeveloper();
    const start = (userAgent: string, secondFactorPending: boolean) =>
      startDashboardSession({ developerId: developer.id, userAgent, address: "203.0.113.7", secondFactorPending }).then((started) => started.session.id);
    const here = await start(CHROME_MAC, false);
    const phone = await start(FIREFOX_WIN, true);
    await markSecondFactorGiven(phone);
    const laptop = await start(SAFARI_MAC, false);
    const waiting = await start(CHROME_MAC, true);
    const listed = (await listDashboardSessions(developer.id)).find((session) => session.device === "Firefox on Windows")!;
    expect(listed.id).toBe(phone);
    expect(await endDashboardSession(developer.id, listed.id, "ended_by_owner")).toBe(true);
    expect(await liveDashboardSession(phone, developer.id)).toBeNull();
    for (const open of [here, laptop, waiting]) expect(await liveDashboardSession(open, developer.id)).toMatchObject({ id: open, endedAt: null });
    expect((await listDashboardSessions(developer.id)).map((session) => session.id).sort()).toEqual([here, laptop, waiting].sort());
  });
});
