import { AGENT_OPERATIONS, generateAgentToken, type KeyAuth } from "@/lib/auth";
import { authorizeSubjectRead } from "@/lib/consent";
import { recordAudit } from "@/lib/audit";
import { withTransaction } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { newId } from "@/lib/ids";
import { parseCategoryList } from "@/lib/records";
import { presentCredential } from "./present-credential";
import type { AgentCredentialResource, IssueCredentialBody } from "./schemas";

/**
 * POST /agent-credentials: a credential for one subject that shares records with the key's application now, for
 * categories its receipt and the allowlist both cover (400 `invalid_grant` otherwise; 404 for a subject that does
 * not share). It ends at the earlier of its duration and the receipt's expiry, and with its parent key or receipt.
 * Only the token's hash is stored.
 */
export async function createAgentCredential(key: KeyAuth, body: IssueCredentialBody, now = new Date()): Promise<{ credential: AgentCredentialResource; token: string }> {
  const categories = parseCategoryList(body.categories);
  const authorization = await authorizeSubjectRead(key, body.subject, now);
  const outside = categories.filter((category) => !authorization.categories.includes(category));
  if (outside.length > 0) {
    throw new ApiError("invalid_grant", `${outside.join(", ")} ${outside.length > 1 ? "are" : "is"} outside what the subject's receipt and the application's allowlist cover.`);
  }
  const operations = AGENT_OPERATIONS.filter((operation) => (body.operations ?? AGENT_OPERATIONS).includes(operation));
  const expiresAt = new Date(Math.min(now.getTime() + body.durationSeconds * 1000, authorization.receipt.expiresAt.getTime()));
  const { token, tokenHash } = generateAgentToken();
  const row = await withTransaction("ReadCommitted", async (tx) => {
    const created = await tx.agentCredential.create({
      data: {
        id: newId("cred_"),
        applicationId: key.application.id,
        environment: key.environment,
        parentKeyId: key.apiKeyId,
        subjectId: body.subject,
        receiptId: authorization.receipt.id,
        categories,
        operations,
        purpose: body.purpose.trim(),
        tokenHash,
        expiresAt,
        createdAt: now,
      },
    });
    await recordAudit(tx, { action: "agent_credential.issue", actor: { type: "api_key", id: key.apiKeyId }, applicationId: key.application.id, targetType: "agent_credential", targetId: created.id, after: { environment: key.environment, subject: created.subjectId, categories, operations, purpose: created.purpose, expiresAt } });
    return created;
  });
  return { credential: presentCredential(row), token };
}
