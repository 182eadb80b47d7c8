import { request, type Answer } from "@/test/api-server";
import { readWholeCategory, replayChangeFeed } from "@/test/crash-checks";

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

/** The client's GET as crash checks read it (test/crash-checks.ts). */
const getter = (client: ApiClient) => async (path: string) => (await client.ok("GET", path)).body;

/** A category's change feed replayed from `cursor` to its end, by record id. */
export const replayChanges = (client: ApiClient, subject: string, category: string, cursor: string) => replayChangeFeed(getter(client), subject, category, cursor);

/** A category read afresh, every page, by record id. */
export const readCategory = (client: ApiClient, subject: string, category: string) => readWholeCategory(getter(client), subject, category);
