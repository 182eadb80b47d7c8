import type { KeyAuth } from "@/lib/auth";
import { pgPool } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { CATEGORIES, type Category, type ReadScope } from "@/lib/records";
import { activeReceipt, type ActiveReceiptRow } from "./receipt-sql";

export type ReadAuthorization = {
  scope: ReadScope;
  receipt: { id: string; categories: Category[]; expiresAt: Date; grantedAt: Date };
  /** What the key may read of this subject now: the receipt's categories the application's allowlist also holds. */
  categories: Category[];
};

/**
 * Whether the calling key may read this subject now: the subject belongs to the key's application and environment
 * and has an active, unexpired share receipt. Anything else is 404 `not_found`, so a key learns nothing about
 * subjects it may not read, and a revoked or expired receipt ends reads at once.
 */
export async function authorizeSubjectRead(key: KeyAuth, subjectId: string, now = new Date()): Promise<ReadAuthorization> {
  const scope = readScope(key, subjectId);
  const { rows } = await pgPool().query<ActiveReceiptRow>(activeReceipt(scope, now));
  return readAuthorization(key, scope, rows[0]);
}

/** Whose records a key reads of a subject: its application and environment. */
export function readScope(key: KeyAuth, subjectId: string): ReadScope {
  return { applicationId: key.application.id, environment: key.environment, subjectId };
}

/**
 * The authorization an active receipt (activeReceiptSelect, read alone or in the statement of the read itself)
 * gives the key: 404 `not_found` without one.
 */
export function readAuthorization(key: KeyAuth, scope: ReadScope, receipt: ActiveReceiptRow | undefined): ReadAuthorization {
  if (!receipt) throw new ApiError("not_found", `No subject ${scope.subjectId} shares records with this application.`);
  const granted = CATEGORIES.filter((category) => receipt.categories.includes(category));
  return {
    scope,
    receipt: { id: receipt.id, categories: granted, expiresAt: receipt.expiresAt, grantedAt: receipt.grantedAt },
    categories: granted.filter((category) => key.application.categoryAllowlist.includes(category)),
  };
}

/** 403 `app_scope_exceeded` unless the authorization covers the category. */
export function assertCategoryReadable(authorization: ReadAuthorization, category: Category): void {
  if (authorization.categories.includes(category)) return;
  const why = authorization.receipt.categories.includes(category) ? "the application's category allowlist" : "the subject's consent";
  throw new ApiError("app_scope_exceeded", `${category} is outside ${why}.`);
}
