import type { AgentOperation, AuthorityRow } from "@/lib/auth";
import { CATEGORIES, type Category } from "@/lib/records";
import type { AgentCredentialResource } from "./schemas";

export type CredentialRow = Pick<AuthorityRow, "id" | "subjectId" | "receiptId" | "categories" | "operations" | "purpose" | "expiresAt"> & {
  createdAt: Date;
  revokedAt: Date | null;
};

export function presentCredential(row: CredentialRow): AgentCredentialResource {
  return {
    object: "agent_credential",
    id: row.id,
    subject: row.subjectId,
    receiptId: row.receiptId,
    categories: CATEGORIES.filter((category: Category) => row.categories.includes(category)),
    operations: row.operations as AgentOperation[],
    purpose: row.purpose,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
