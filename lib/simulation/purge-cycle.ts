import { db } from "@/lib/db";
import type { LifecycleCycle } from "@/lib/jobs";

/**
 * Synthetic patients are purged 7 days after their simulation created them: the patient, its subject, sources,
 * records, change feed and receipts (cascading), and its own EHR instance's phase and refresh tokens.
 */
export const purgeSyntheticPatients = {
  name: "purge-synthetic-patients",
  run: async (now: Date) => {
    const due = await db().patient.findMany({ where: { syntheticForApplicationId: { not: null }, purgeAt: { lte: now } }, select: { id: true } });
    for (const patient of due) {
      const instance = { endsWith: `.${patient.id}` };
      await db().$transaction([
        db().ehrPatientPhase.deleteMany({ where: { patientKey: instance } }),
        db().ehrRefreshToken.deleteMany({ where: { patientKey: instance } }),
        db().ehrAuthorizationCode.deleteMany({ where: { patientKey: instance } }),
        db().patient.deleteMany({ where: { id: patient.id } }),
      ]);
    }
    return due.length;
  },
} satisfies LifecycleCycle;
