import { recordAudit } from "@/lib/audit";
import { currentSealPrefix, decryptSecret, encryptSecret } from "@/lib/auth";
import { rekeyedLinkHashes } from "@/lib/connect";
import { db, withTransaction } from "@/lib/db";
import { SANDBOX_CLIENT_ID, sandboxClientSecret } from "@/lib/ehr";

/** Every column holding a value encrypted at rest (lib/auth secret-box), by table. */
const SEALED_COLUMNS = {
  Application: ["signingSecretEncrypted", "previousSigningSecretEncrypted"],
  Provider: ["clientSecretEncrypted"],
  Source: ["accessTokenEncrypted", "refreshTokenEncrypted"],
  SourceAuthorization: ["codeVerifierEncrypted"],
} as const;

type SealedTable = keyof typeof SEALED_COLUMNS;

export type RotationReport = { reencrypted: Record<SealedTable, number>; relinked: { sessions: number; receipts: number } };

const BATCH = 200;

/** Whether a stored value is one to re-encrypt: set (the empty string is "no secret") and not under the current key. */
function stale(value: string | null, prefix: string): value is string {
  return value !== null && value !== "" && !value.startsWith(prefix);
}

/**
 * The sealed value as it should be under the current secret. A sandbox provider's client secret is itself derived
 * from CHARTKEY_SECRET (lib/ehr), so it becomes the new secret's value rather than the old one re-encrypted.
 */
function resealed(table: SealedTable, row: Record<string, string | null>, column: string): string {
  if (table === "Provider" && row.environment === "sandbox" && row.clientId === SANDBOX_CLIENT_ID) return encryptSecret(sandboxClientSecret(row.id!));
  return encryptSecret(decryptSecret(row[column]!));
}

/**
 * Re-encrypts one table's sealed values under the current secret, one row per transaction (the row is locked and
 * read again, so a concurrent write, say a token refresh or a secret rotation by its owner, is never overwritten
 * with older data). Rows already under the current key are not selected, so a second run, or a run resumed after
 * a crash, does only what is left.
 */
async function reencryptTable(table: SealedTable): Promise<number> {
  const columns = SEALED_COLUMNS[table];
  const prefix = currentSealPrefix();
  const extra = table === "Provider" ? `, "environment"::text AS "environment", "clientId"` : "";
  const staleCondition = columns.map((column) => `("${column}" <> '' AND "${column}" NOT LIKE $2)`).join(" OR ");
  let changed = 0;
  let after = "";
  for (;;) {
    // Identifiers come from SEALED_COLUMNS above, never from input; values are parameters.
    const ids = await db().$queryRawUnsafe<Array<{ id: string }>>(
      `SELECT "id" FROM "${table}" WHERE "id" > $1 AND (${staleCondition}) ORDER BY "id" LIMIT ${BATCH}`,
      after,
      `${prefix}%`,
    );
    if (ids.length === 0) return changed;
    for (const { id } of ids) {
      const updated = await withTransaction("ReadCommitted", async (tx) => {
        const [row] = await tx.$queryRawUnsafe<Array<Record<string, string | null>>>(
          `SELECT "id", ${columns.map((column) => `"${column}"`).join(", ")}${extra} FROM "${table}" WHERE "id" = $1 FOR UPDATE`,
          id,
        );
        if (!row) return false;
        const todo = columns.filter((column) => stale(row[column] ?? null, prefix));
        if (todo.length === 0) return false;
        const values = todo.map((column) => resealed(table, row, column));
        await tx.$executeRawUnsafe(`UPDATE "${table}" SET ${todo.map((column, index) => `"${column}" = $${index + 2}`).join(", ")} WHERE "id" = $1`, id, ...values);
        return true;
      });
      if (updated) changed++;
    }
    after = ids.at(-1)!.id;
  }
}

/**
 * Moves patients' links (connect URLs of sessions still open, receipt pages) to the current secret: the link shown
 * from now on is the new secret's, and the one handed out before keeps opening the same object (its hash is kept
 * as an earlier one). One row per transaction, as above; a row already moved is left alone.
 */
async function relinkTable(kind: "session" | "receipt"): Promise<number> {
  let changed = 0;
  let after = "";
  for (;;) {
    const rows =
      kind === "session"
        ? await db().connectSession.findMany({ where: { id: { gt: after }, expiresAt: { gt: new Date() } }, select: { id: true }, orderBy: { id: "asc" }, take: BATCH })
        : await db().consentReceipt.findMany({ where: { id: { gt: after }, patientTokenHash: { not: null } }, select: { id: true }, orderBy: { id: "asc" }, take: BATCH });
    if (rows.length === 0) return changed;
    for (const { id } of rows) {
      const updated = await withTransaction("ReadCommitted", async (tx) => {
        if (kind === "session") {
          const [row] = await tx.$queryRaw<Array<{ current: string; earlier: string[] }>>`
            SELECT "connectTokenHash" AS "current", "earlierConnectTokenHashes" AS "earlier" FROM "ConnectSession" WHERE "id" = ${id} FOR UPDATE`;
          const next = row && rekeyedLinkHashes("session", id, row);
          if (next) await tx.connectSession.update({ where: { id }, data: { connectTokenHash: next.current, earlierConnectTokenHashes: next.earlier } });
          return Boolean(next);
        }
        const [row] = await tx.$queryRaw<Array<{ current: string | null; earlier: string[] }>>`
          SELECT "patientTokenHash" AS "current", "earlierPatientTokenHashes" AS "earlier" FROM "ConsentReceipt" WHERE "id" = ${id} FOR UPDATE`;
        const next = row?.current ? rekeyedLinkHashes("receipt", id, { current: row.current, earlier: row.earlier }) : null;
        if (next) await tx.consentReceipt.update({ where: { id }, data: { patientTokenHash: next.current, earlierPatientTokenHashes: next.earlier } });
        return Boolean(next);
      });
      if (updated) changed++;
    }
    after = rows.at(-1)!.id;
  }
}

/**
 * `npm run secret:rotate` (docs/operations.md): after CHARTKEY_SECRET was replaced and the old value set as
 * CHARTKEY_SECRET_PREVIOUS on every instance, re-encrypts everything encrypted at rest under the new secret and
 * moves patients' links to it, then records the rotation on the audit trail. Idempotent and resumable; safe while
 * the platform serves traffic. Once it has finished, CHARTKEY_SECRET_PREVIOUS may be removed after the longest
 * lifetime of what was signed under it (docs/operations.md lists them).
 */
export async function rotateSecrets(): Promise<RotationReport> {
  const reencrypted = {} as Record<SealedTable, number>;
  for (const table of Object.keys(SEALED_COLUMNS) as SealedTable[]) reencrypted[table] = await reencryptTable(table);
  const relinked = { sessions: await relinkTable("session"), receipts: await relinkTable("receipt") };
  await recordAudit(db(), {
    action: "deployment.secret_rotate",
    actor: { type: "system", label: "npm run secret:rotate" },
    targetType: "deployment",
    targetId: "CHARTKEY_SECRET",
    after: { ...reencrypted, sessionsRelinked: relinked.sessions, receiptsRelinked: relinked.receipts },
  });
  return { reencrypted, relinked };
}
