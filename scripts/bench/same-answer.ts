import { isDeepStrictEqual } from "node:util";

/**
 * Fetches `path` from the platform and from the baseline and throws unless both answer 200 with the same JSON
 * (the snapshot's generation time aside): the baseline only counts if it does the same job.
 */
export async function assertSameAnswer(platformUrl: string, baselineUrl: string, path: string, headers: Record<string, string>): Promise<void> {
  const [platform, baseline] = await Promise.all([read(platformUrl + path, headers), read(baselineUrl + path, headers)]);
  if (platform.status !== 200 || baseline.status !== 200) {
    throw new Error(`${path}: platform answered ${platform.status}, baseline ${baseline.status}: ${JSON.stringify(platform.body).slice(0, 300)} / ${JSON.stringify(baseline.body).slice(0, 300)}`);
  }
  if (!isDeepStrictEqual(comparable(platform.body), comparable(baseline.body))) {
    throw new Error(`${path}: the baseline's answer differs from the platform's:\n${JSON.stringify(platform.body).slice(0, 600)}\n${JSON.stringify(baseline.body).slice(0, 600)}`);
  }
}

async function read(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as unknown };
}

function comparable(body: unknown): unknown {
  if (!body || typeof body !== "object" || !("meta" in body)) return body;
  const meta = { ...(body as { meta: Record<string, unknown> }).meta };
  delete meta.generatedAt;
  return { ...body, meta };
}

/**
 * Fetches a read from the platform and its floor from the baseline (endpoints.ts, FloorId) and throws unless the
 * floor forwards exactly the records the platform's answer holds, in its order: a floor only counts if it moves the
 * same records.
 */
export async function assertFloorHoldsTheRecords(platformUrl: string, baselineUrl: string, readPath: string, floorPath: string, headers: Record<string, string>): Promise<void> {
  const [platform, floor] = await Promise.all([read(platformUrl + readPath, headers), read(baselineUrl + floorPath, {})]);
  if (platform.status !== 200 || floor.status !== 200) throw new Error(`${floorPath}: the platform answered ${readPath} with ${platform.status}, the floor ${floor.status}`);
  const records = recordsOf(platform.body);
  const forwarded = (floor.body as { data?: unknown }).data;
  if (records.length === 0 || !isDeepStrictEqual(records, forwarded)) {
    throw new Error(`${floorPath}: the floor's records are not the ${records.length} records the platform's ${readPath} holds`);
  }
}

/** The records of a category page (`data`) or of a snapshot (each section's, in section order). */
function recordsOf(body: unknown): unknown[] {
  const answer = body as { data?: unknown[]; sections?: Record<string, { records: unknown[] }> };
  return answer.data ?? Object.values(answer.sections ?? {}).flatMap((section) => section.records);
}
