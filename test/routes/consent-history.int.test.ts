import { describe, expect, it } from "vitest";
import * as historyRoute from "@/app/consent/[token]/history/route";
import { linkToken, linkTokenHash } from "@/lib/connect";
import { db } from "@/lib/db";
import { sharingSubject } from "@/test/records";

const download = (token: string) => historyRoute.GET(new Request(`http://localhost/consent/${token}/history`), { params: Promise.resolve({ token }) });

describe("GET /consent/{token}/history: the patient's disclosure history as a download", () => {
  it("is the receipt link's view as a JSON attachment, never cached; an unknown link is 404 not_found", async () => {
    const { subject, receipt, application } = await sharingSubject();
    const token = linkToken("receipt", receipt.id);
    await db().consentReceipt.update({ where: { id: receipt.id }, data: { patientTokenHash: linkTokenHash(token) } });

    const response = await download(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="chartkey-disclosures-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ application: application.name, subject: subject.id, historyDays: 30, history: { requests: 0, days: [], agents: [] } });

    const unknown = await download("not-a-token");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: "not_found" } });
  });
});
