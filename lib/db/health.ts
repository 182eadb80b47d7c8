import { db } from "./client";

export async function databaseReachable(timeoutMs = 2000): Promise<boolean> {
  const probe = db().$queryRaw`SELECT 1`.then(() => true, () => false);
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
  return Promise.race([probe, timeout]);
}
