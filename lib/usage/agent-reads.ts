import { db } from "@/lib/db";

export type AgentRead = {
  id: string;
  createdAt: Date;
  method: string;
  route: string;
  subjectId: string | null;
  status: number;
  errorCode: string | null;
  requestId: string;
  credentialId: string;
  /** Why the agent read, as the application said when it issued the credential. */
  purpose: string | null;
};

/**
 * Who read what, and why: the application's newest requests made with delegated credentials, each with its
 * credential and the purpose it was issued for.
 */
export async function agentReads(input: { applicationId: string; limit?: number }): Promise<AgentRead[]> {
  const rows = await db().requestLog.findMany({
    where: { applicationId: input.applicationId, agentCredentialId: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit ?? 50,
  });
  const ids = [...new Set(rows.map((row) => row.agentCredentialId as string))];
  const credentials = await db().agentCredential.findMany({ where: { id: { in: ids }, applicationId: input.applicationId }, select: { id: true, purpose: true } });
  const purposes = new Map(credentials.map((credential) => [credential.id, credential.purpose]));
  return rows.map((row) => ({
    id: row.id.toString(),
    createdAt: row.createdAt,
    method: row.method,
    route: row.route,
    subjectId: row.subjectId,
    status: row.status,
    errorCode: row.errorCode,
    requestId: row.requestId,
    credentialId: row.agentCredentialId as string,
    purpose: purposes.get(row.agentCredentialId as string) ?? null,
  }));
}
