import { describe, expect, it } from "vitest";
import * as entry from "@/app/connect/[token]/route";
import * as status from "@/app/connect/[token]/status/route";
import { authenticateKey } from "@/lib/auth";
import { completeSession, createConnectSession, linkToken } from "@/lib/connect";
import { db } from "@/lib/db";
import { createTestApplication } from "@/test/factories";

async function session() {
  const { sandboxKey } = await createTestApplication({ name: "Acme Care" });
  const key = await authenticateKey(`Bearer ${sandboxKey}`);
  const created = await createConnectSession(key, { categories: ["labs"] }, "http://localhost");
  return { id: created.id, token: linkToken("session", created.id) };
}

const open = (token: string, accept = "text/html") =>
  entry.GET(new Request(`http://localhost/connect/${token}`, { headers: { accept } }), { params: Promise.resolve({ token }) });

describe("the connect URL", () => {
  it("sends a pending session's patient to the first step, and a completed one to the done page", async () => {
    const { id, token } = await session();
    const first = await open(token);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe(`http://localhost/connect/${token}/start`);
    await completeSession(id, ["labs"]);
    expect((await open(token)).headers.get("location")).toBe(`http://localhost/connect/${token}/done`);
  });

  it("answers an expired link 410 session_expired: a page for patients, the envelope for API clients", async () => {
    const { id, token } = await session();
    await db().connectSession.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const page = await open(token);
    expect(page.status).toBe(410);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("This link has expired");
    const json = await open(token, "application/json");
    expect(json.status).toBe(410);
    expect((await json.json()).error.code).toBe("session_expired");
    expect((await status.GET(new Request("http://localhost/x"), { params: Promise.resolve({ token }) })).status).toBe(410);
  });

  it("answers an unknown link 404 without saying more", async () => {
    const page = await open("not-a-real-token");
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This link is not valid");
  });
});
