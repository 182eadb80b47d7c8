import { request, type Answer } from "@/test/api-server";

/** A keyed client of a platform served at `origin`, for tests that drive it over real HTTP. */
export function apiClient(origin: () => string, key: string) {
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer> =>
    request(origin(), method, `/api/v1${path}`, { token: key, body, headers });
  const ok = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const answer = await call(method, path, body, headers);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  };
  return { call, ok };
}

export type ApiClient = ReturnType<typeof apiClient>;

type Change = { sequence: number; changeType: "upsert" | "delete"; recordId: string; record: { recordId: string } | null };

/**
 * Replays a category's change feed from `cursor` to its end as a client applies it (upserts keyed by record id,
 * deletes removing), and returns the records it ends with, by id.
 */
export async function replayChanges(client: ApiClient, subject: string, category: string, cursor: string): Promise<Map<string, unknown>> {
  const records = new Map<string, unknown>();
  for (;;) {
    const page = (await client.ok("GET", `/users/${subject}/records/${category}/changes?limit=100&cursor=${encodeURIComponent(cursor)}`)).body as unknown as {
      data: Change[];
      hasMore: boolean;
      nextCursor: string;
    };
    for (const change of page.data) {
      if (change.changeType === "delete") records.delete(change.recordId);
      else if (change.record) records.set(change.recordId, change.record);
    }
    cursor = page.nextCursor;
    if (!page.hasMore) return records;
  }
}

/** A category read afresh, every page, by record id. */
export async function readCategory(client: ApiClient, subject: string, category: string): Promise<Map<string, unknown>> {
  const records = new Map<string, unknown>();
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page = (await client.ok("GET", `/users/${subject}/records/${category}?limit=100${query}`)).body as unknown as {
      data: { recordId: string }[];
      nextCursor: string | null;
    };
    for (const record of page.data) records.set(record.recordId, record);
    cursor = page.nextCursor;
  } while (cursor);
  return records;
}
