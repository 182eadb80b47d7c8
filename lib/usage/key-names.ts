import { db } from "@/lib/db";

/** The names of the application's keys among `ids` (ids of other applications' keys are never resolved). */
export async function keyNames(applicationId: string, ids: ReadonlyArray<string | null>): Promise<Map<string, { name: string; displayPrefix: string; environment: "sandbox" | "live" }>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const keys = await db().apiKey.findMany({ where: { applicationId, id: { in: wanted } }, select: { id: true, name: true, displayPrefix: true, environment: true } });
  return new Map(keys.map(({ id, ...key }) => [id, key]));
}
