import { db } from "@/lib/db";
import { keyNames } from "./key-names";

export type RequestDetail = {
  id: string;
  createdAt: Date;
  method: string;
  /** The operation's path template, e.g. `GET /users/{subject}`. */
  route: string;
  /** The path as requested; null for rows logged before paths were kept. */
  path: string | null;
  status: number;
  errorCode: string | null;
  requestId: string;
  latencyMs: number;
  environment: "sandbox" | "live" | null;
  subjectId: string | null;
  key: { id: string; name: string; displayPrefix: string } | null;
  /** Set for reads made with a delegated credential: which one, and the purpose it was issued for. */
  credential: { id: string; purpose: string | null } | null;
};

const LOG_ID = /^[1-9][0-9]{0,18}$/;

/**
 * One row of the application's request log, for the usage page's detail. Null when the id is malformed or names a
 * row of another application: the page says "not found" for both.
 */
export async function requestDetail(input: { applicationId: string; id: string }): Promise<RequestDetail | null> {
  if (!LOG_ID.test(input.id) || BigInt(input.id) > 9_223_372_036_854_775_807n) return null;
  const row = await db().requestLog.findFirst({ where: { id: BigInt(input.id), applicationId: input.applicationId } });
  if (!row) return null;
  const [names, credential] = await Promise.all([
    keyNames(input.applicationId, [row.apiKeyId]),
    row.agentCredentialId
      ? db().agentCredential.findFirst({ where: { id: row.agentCredentialId, applicationId: input.applicationId }, select: { id: true, purpose: true } })
      : null,
  ]);
  const key = row.apiKeyId ? names.get(row.apiKeyId) : undefined;
  return {
    id: row.id.toString(),
    createdAt: row.createdAt,
    method: row.method,
    route: row.route,
    path: row.path,
    status: row.status,
    errorCode: row.errorCode,
    requestId: row.requestId,
    latencyMs: row.latencyMs,
    environment: row.environment,
    subjectId: row.subjectId,
    key: key && row.apiKeyId ? { id: row.apiKeyId, name: key.name, displayPrefix: key.displayPrefix } : null,
    credential: credential ?? (row.agentCredentialId ? { id: row.agentCredentialId, purpose: null } : null),
  };
}
