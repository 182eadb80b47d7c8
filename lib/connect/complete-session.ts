import { grantReceipt } from "@/lib/consent";
import { db, withTransaction, type Tx } from "@/lib/db";
import { recordEvent } from "@/lib/events";
import { ApiError } from "@/lib/http";
import { newId } from "@/lib/ids";
import { parseCategoryList, type Category } from "@/lib/records";
import { linkToken, linkTokenHash } from "./link-tokens";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The subject a session connects: the subject of an earlier completed session of the same application, environment
 * and externalUserId if there is one, else a new person and subject. Created when the patient first signs in at a
 * health system (records are imported under it), and shown to the application only once the session completes.
 */
export async function sessionSubject(sessionId: string, tx?: Tx): Promise<string> {
  const run = async (client: Tx) => {
    const session = await client.connectSession.findUniqueOrThrow({ where: { id: sessionId } });
    if (session.subjectId) return session.subjectId;
    const earlier = session.externalUserId
      ? await client.connectSession.findFirst({
          where: {
            applicationId: session.applicationId,
            environment: session.environment,
            externalUserId: session.externalUserId,
            status: "completed",
            subjectId: { not: null },
          },
          orderBy: { completedAt: "desc" },
          select: { subjectId: true },
        })
      : null;
    let subjectId = earlier?.subjectId ?? null;
    if (!subjectId) {
      const patient = await client.patient.create({ data: { id: newId("pat_"), environment: session.environment } });
      const subject = await client.subject.create({
        data: { id: newId("u_"), applicationId: session.applicationId, environment: session.environment, patientId: patient.id },
      });
      subjectId = subject.id;
    }
    await client.connectSession.update({ where: { id: sessionId }, data: { subjectId } });
    return subjectId;
  };
  return tx ? run(tx) : withTransaction("ReadCommitted", run);
}

/**
 * The patient said yes: in one transaction the session completes with the categories they kept, the share receipt
 * is created (superseding the subject's previous one) with its private link, and `consent.granted` is stored.
 * Returns the receipt and the token of the patient's receipt link.
 */
export async function completeSession(sessionId: string, granted: readonly string[], now = new Date()) {
  return withTransaction("ReadCommitted", async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string }[]>`SELECT "status" FROM "ConnectSession" WHERE "id" = ${sessionId} FOR UPDATE`;
    const session = await tx.connectSession.findUniqueOrThrow({ where: { id: sessionId } });
    if (locked?.status !== "pending") throw new ApiError("session_completed", "This session has already ended.");
    if (session.expiresAt <= now) throw new ApiError("session_expired", "This link has expired. Ask the application for a new one.");
    const categories: Category[] = parseCategoryList([...granted]).filter((category) => session.categories.includes(category));
    if (categories.length === 0) throw new ApiError("invalid_categories", "Choose at least one kind of record to share.");

    const subjectId = await sessionSubject(sessionId, tx);
    const receipt = await grantReceipt(
      {
        applicationId: session.applicationId,
        environment: session.environment,
        subjectId,
        categories,
        connectSessionId: session.id,
        expiresAt: new Date(now.getTime() + session.consentDays * DAY_MS),
        now,
      },
      tx,
    );
    const receiptToken = linkToken("receipt", receipt.id);
    await tx.consentReceipt.update({ where: { id: receipt.id }, data: { patientTokenHash: linkTokenHash(receiptToken) } });
    await tx.connectSession.update({ where: { id: sessionId }, data: { status: "completed", completedAt: now, grantedCategories: categories } });
    await recordEvent(
      {
        applicationId: session.applicationId,
        environment: session.environment,
        type: "consent.granted",
        data: { sessionId: session.id, subject: subjectId, receiptId: receipt.id, categories, expiresAt: receipt.expiresAt.toISOString() },
      },
      tx,
    );
    return { receipt, receiptToken, subjectId };
  });
}

/** The patient cancels from any step of the hosted flow. */
export async function cancelFromFlow(sessionId: string, now = new Date()): Promise<void> {
  await db().connectSession.updateMany({ where: { id: sessionId, status: "pending" }, data: { status: "cancelled", cancelledAt: now } });
}
