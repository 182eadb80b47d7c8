import { smtpUrl } from "@/lib/config";
import { db } from "@/lib/db";

export type OutboxMessage = { id: string; to: string; subject: string; text: string; html: string; kind: string; createdAt: Date };

/** Whether email is kept in the outbox (no CHARTKEY_SMTP_URL) rather than sent. */
export function outboxInUse(): boolean {
  return smtpUrl() === null;
}

/** The outbox's newest messages first (at most `limit`), optionally only those to one address. */
export async function listOutbox(options: { to?: string; limit?: number } = {}): Promise<OutboxMessage[]> {
  return db().outboxEmail.findMany({
    where: options.to ? { to: options.to.toLowerCase() } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(options.limit ?? 50, 1), 200),
    select: { id: true, to: true, subject: true, text: true, html: true, kind: true, createdAt: true },
  });
}
