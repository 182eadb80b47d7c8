import { db, Prisma } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { findEhrPatient, type EhrPatient } from "./patients";

/** The phase the health system currently serves the patient at: 0 until the sandbox advances it. */
export async function currentEhrPatientPhase(patient: EhrPatient): Promise<number> {
  const row = await db().ehrPatientPhase.findUnique({
    where: { providerId_patientKey: { providerId: patient.providerId, patientKey: patient.patientKey } },
  });
  // A phase stored before the fixtures lost phases must not make sourceResources throw.
  return Math.min(row?.phase ?? 0, patient.phases - 1);
}

/**
 * Moves the patient's record one phase on (the sandbox's `records.advance` control), stopping at the source's last
 * phase; returns the phase now served. One statement, so concurrent advances never skip or exceed a phase.
 */
export async function advanceEhrPatientPhase(providerId: string, patientKey: string): Promise<number> {
  const patient = findEhrPatient(providerId, patientKey);
  if (!patient) throw new ApiError("not_found", `No synthetic patient ${patientKey} at ${providerId}.`);
  const last = patient.phases - 1;
  const [row] = await db().$queryRaw<{ phase: number }[]>(Prisma.sql`
    INSERT INTO "EhrPatientPhase" ("providerId", "patientKey", "phase", "updatedAt")
    VALUES (${providerId}, ${patientKey}, LEAST(1, ${last}::int), now())
    ON CONFLICT ("providerId", "patientKey")
    DO UPDATE SET "phase" = LEAST("EhrPatientPhase"."phase" + 1, ${last}::int), "updatedAt" = now()
    RETURNING "phase"`);
  return row?.phase ?? 0;
}
