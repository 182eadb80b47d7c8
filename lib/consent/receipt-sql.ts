import type pg from "pg";

export type ActiveReceiptRow = { id: string; categories: string[]; expiresAt: Date; grantedAt: Date };

/** Where a statement binds each value the active receipt is found by (`$1`, `$6`...). */
export type ReceiptParams = { subject: string; application: string; environment: string; now: string };

/**
 * The subject's active, unexpired share receipt with the application in the environment, if any, as a SELECT that
 * a read can run under (lib/users reads a page and the receipt that allows it in one statement). Times are
 * timestamp(3) in UTC (Prisma's DateTime): select them `AT TIME ZONE 'UTC'` so pg reads the right instant.
 */
export function activeReceiptSelect(params: ReceiptParams): string {
  return `SELECT id, categories, "expiresAt", "grantedAt"
          FROM "ConsentReceipt"
          WHERE "subjectId" = ${params.subject} AND "applicationId" = ${params.application} AND environment = ${params.environment}::"Environment"
            AND status = 'active' AND "expiresAt" > ${params.now}::timestamp(3)
          LIMIT 1`;
}

/** The values of a ReceiptParams, in the order `receiptParams` numbers them. */
export function receiptValues(scope: { subjectId: string; applicationId: string; environment: string }, now: Date): unknown[] {
  return [scope.subjectId, scope.applicationId, scope.environment, now.toISOString()];
}

/** Placeholders for receiptValues bound from `$first` on. */
export function receiptParams(first: number): ReceiptParams {
  return { subject: `$${first}`, application: `$${first + 1}`, environment: `$${first + 2}`, now: `$${first + 3}` };
}

/**
 * The active receipt on its own: run through pg directly as a named statement, since reads ask it (an ORM query
 * would be compiled per call).
 */
export function activeReceipt(scope: { subjectId: string; applicationId: string; environment: string }, now: Date): pg.QueryConfig {
  return {
    name: "chartkey-active-receipt",
    text: `SELECT id, categories, "expiresAt" AT TIME ZONE 'UTC' AS "expiresAt", "grantedAt" AT TIME ZONE 'UTC' AS "grantedAt"
           FROM (${activeReceiptSelect(receiptParams(1))}) receipt`,
    values: receiptValues(scope, now),
  };
}
