import { devSandboxKey } from "@/test/e2e-platform";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { CATEGORIES as ALL_CATEGORIES } from "@/lib/records";

// The sandbox end to end against the running platform (its in-process worker runs the simulation and import jobs):
// simulate multi-source-overlap, poll simulation.state, read records, advance the sources and follow the change
// feed's upserts and tombstones, then revoke and see reads stop.

let sandboxKey: string;
const CATEGORIES = [...ALL_CATEGORIES];

test.beforeAll(() => {
  sandboxKey = devSandboxKey();
});

const auth = () => ({ Authorization: `Bearer ${sandboxKey}` });
type Change = { recordId: string; changeType: string; record: { recordId: string } | null };

async function allRecords(request: APIRequestContext, subject: string, category: string) {
  const records = new Map<string, unknown>();
  let cursor: string | null = null;
  let changeCursor: string | undefined;
  do {
    const response = await request.get(`/api/v1/users/${subject}/records/${category}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers: auth() });
    expect(response.status()).toBe(200);
    const page = (await response.json()) as { data: { recordId: string }[]; nextCursor: string | null; meta: { changeCursor: string } };
    changeCursor ??= page.meta.changeCursor;
    for (const record of page.data) records.set(record.recordId, record);
    cursor = page.nextCursor;
  } while (cursor);
  return { records, changeCursor: changeCursor as string };
}

test("simulate multi-source-overlap, poll, read, advance with upserts and tombstones in the change feed, revoke", async ({ request }) => {
  test.setTimeout(90_000);
  const created = await request.post("/api/v1/connect/sessions", { headers: auth(), data: { categories: CATEGORIES } });
  expect(created.status()).toBe(201);
  const session = (await created.json()) as { id: string };

  const simulated = await request.post(`/api/v1/connect/sessions/${session.id}/simulate`, { headers: auth(), data: { scenario: "multi-source-overlap" } });
  expect(simulated.status()).toBe(200);
  const body = (await simulated.json()) as { status: string; subject: string; simulation: { state: string } };
  expect(body.status).toBe("completed");
  const subject = body.subject;

  await expect
    .poll(async () => ((await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers: auth() })).json()) as { simulation: { state: string } }).simulation.state, { timeout: 60_000 })
    .toBe("completed");
  const finished = (await (await request.get(`/api/v1/connect/sessions/${session.id}`, { headers: auth() })).json()) as { sources: { providerId: string; status: string }[] };
  expect(finished.sources.map((source) => [source.providerId, source.status])).toEqual([["lakeshore-health", "synced"], ["prairie-ridge", "synced"]]);

  const categories = CATEGORIES;
  const first = new Map<string, Awaited<ReturnType<typeof allRecords>>>();
  for (const category of categories) {
    first.set(category, await allRecords(request, subject, category));
  }
  expect([...first.values()].reduce((sum, snapshot) => sum + snapshot.records.size, 0)).toBeGreaterThan(0);

  for (let step = 0; step < 2; step += 1) {
    const advanced = await request.post(`/api/v1/sandbox/subjects/${subject}/events`, { headers: auth(), data: { type: "records.advance" } });
    expect(advanced.status()).toBe(200);
  }

  const seen = { upsert: 0, delete: 0 };
  for (const category of categories) {
    const start = first.get(category)!;
    const local = new Map(start.records);
    let cursor = start.changeCursor;
    for (;;) {
      const response = await request.get(`/api/v1/users/${subject}/records/${category}/changes?limit=50&cursor=${encodeURIComponent(cursor)}`, { headers: auth() });
      expect(response.status()).toBe(200);
      const page = (await response.json()) as { data: Change[]; hasMore: boolean; nextCursor: string };
      for (const change of page.data) {
        if (change.changeType === "delete") {
          seen.delete += 1;
          local.delete(change.recordId);
        } else {
          seen.upsert += 1;
          local.set(change.recordId, change.record);
        }
      }
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    expect(Object.fromEntries(local)).toEqual(Object.fromEntries((await allRecords(request, subject, category)).records));
  }
  expect(seen.upsert).toBeGreaterThan(0);
  expect(seen.delete).toBeGreaterThan(0);

  const revoked = await request.post(`/api/v1/sandbox/subjects/${subject}/events`, { headers: auth(), data: { type: "consent.revoke" } });
  expect(revoked.status()).toBe(200);
  const after = await request.get(`/api/v1/users/${subject}/records/medications`, { headers: auth() });
  expect(after.status()).toBeGreaterThanOrEqual(400);
});
