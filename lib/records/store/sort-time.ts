import type { Category } from "../categories";
import type { ClinicalTime, NormalizedRecord, Period } from "../schemas";

/** Records without a clinical time sort after every dated one in newest-first order. */
export const UNDATED_SORT_AT = new Date("0001-01-01T00:00:00.000Z");

type TimeField = { field: string; kind: "clinical" | "dateTime" | "period" };

/** Per category, the fields that say when the fact happened, most telling first. */
const TIME_FIELDS: Record<Category, TimeField[]> = {
  demographics: [],
  conditions: [
    { field: "onset", kind: "clinical" },
    { field: "recordedDate", kind: "dateTime" },
  ],
  medications: [
    { field: "effective", kind: "clinical" },
    { field: "authoredOn", kind: "dateTime" },
  ],
  allergies: [
    { field: "onset", kind: "clinical" },
    { field: "recordedDate", kind: "dateTime" },
  ],
  immunizations: [
    { field: "occurrence", kind: "clinical" },
    { field: "recorded", kind: "dateTime" },
  ],
  labs: [
    { field: "effective", kind: "clinical" },
    { field: "issued", kind: "dateTime" },
  ],
  vitals: [
    { field: "effective", kind: "clinical" },
    { field: "issued", kind: "dateTime" },
  ],
  procedures: [{ field: "performed", kind: "clinical" }],
  documents: [{ field: "date", kind: "dateTime" }],
  claims: [
    { field: "created", kind: "dateTime" },
    { field: "billablePeriod", kind: "period" },
  ],
};

/**
 * The instant a record orders by, in UTC: its clinical time read as the source wrote it (a partial date counts from
 * its start), else UNDATED_SORT_AT. Only ordering uses it; the record keeps the source's own time and offset.
 */
export function recordSortAt(category: Category, record: NormalizedRecord): Date {
  const fields = record as unknown as Record<string, unknown>;
  for (const { field, kind } of TIME_FIELDS[category]) {
    const value = fields[field];
    if (value === null || value === undefined) continue;
    const instant =
      kind === "dateTime" ? instantOf(value as string) : kind === "period" ? periodStart(value as Period) : clinicalInstant(value as ClinicalTime);
    if (instant) return instant;
  }
  return UNDATED_SORT_AT;
}

function clinicalInstant(time: ClinicalTime): Date | null {
  if (time.type === "dateTime") return instantOf(time.value);
  if (time.type === "period") return instantOf(time.start) ?? instantOf(time.end);
  return null;
}

function periodStart(period: Period): Date | null {
  return instantOf(period.start) ?? instantOf(period.end);
}

/** FHIR dateTime forms: YYYY, YYYY-MM, YYYY-MM-DD, or a full time with an offset. */
function instantOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  const partial = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(value);
  const date = partial ? new Date(Date.UTC(Number(partial[1]), Number(partial[2] ?? 1) - 1, Number(partial[3] ?? 1))) : new Date(value);
  if (partial) date.setUTCFullYear(Number(partial[1]));
  return Number.isNaN(date.getTime()) ? null : date;
}
