import { describe, expect, it } from "vitest";
import { retentionState } from "./retention";

const now = new Date("2026-12-06T12:00:00Z");
const base = { status: "active" as const, expiresAt: new Date("2027-01-01T00:00:00Z"), revokedAt: null, purgedAt: null, deletionRequestedAt: null };

describe("a subject's data under the retention policy", () => {
  it("is kept while sharing; once revoked or expired, until the retention period after the end", () => {
    expect(retentionState(base, 30, now)).toEqual({ kind: "sharing" });
    const revokedAt = new Date("2026-12-01T00:00:00Z");
    expect(retentionState({ ...base, status: "revoked", revokedAt }, 30, now)).toEqual({ kind: "kept", purgeAfter: new Date("2026-12-31T00:00:00Z"), days: 30 });
    // Past its expiry an active receipt has ended, before the worker marks it.
    const expiresAt = new Date("2026-12-05T00:00:00Z");
    expect(retentionState({ ...base, expiresAt }, 0, now)).toEqual({ kind: "kept", purgeAfter: expiresAt, days: 0 });
  });

  it("a patient's request is purged at once; a purge that happened is shown with its time and cause", () => {
    const requestedAt = new Date("2026-12-06T11:00:00Z");
    expect(retentionState({ ...base, status: "revoked", revokedAt: requestedAt, deletionRequestedAt: requestedAt }, 30, now)).toEqual({ kind: "deleting", requestedAt });
    const purgedAt = new Date("2026-12-06T11:00:01Z");
    expect(retentionState({ ...base, status: "revoked", revokedAt: requestedAt, deletionRequestedAt: requestedAt, purgedAt }, 30, now)).toEqual({ kind: "purged", purgedAt, onRequest: true });
    expect(retentionState({ ...base, status: "expired", purgedAt }, 30, now)).toEqual({ kind: "purged", purgedAt, onRequest: false });
  });
});
