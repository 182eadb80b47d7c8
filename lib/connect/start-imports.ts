import { db } from "@/lib/db";
import { QUEUE, sendJob } from "@/lib/queue";

/** Queues one import per connected source of the session; an import already queued for a source is not repeated. */
export async function startImports(connectSessionId: string): Promise<number> {
  const sources = await db().source.findMany({ where: { connectSessionId, connected: true }, select: { id: true } });
  for (const source of sources) await sendJob(QUEUE.sourceImport, { sourceId: source.id }, { singletonKey: source.id });
  return sources.length;
}
