import type { Bundle, FhirResource, Observation, Quantity } from "fhir/r4";
import { scenarioBundle } from "@/lib/sandbox";

/** The record scenarios the bench's subjects are drawn from, in turn. */
export const BENCH_SCENARIOS = [
  "baseline-adult",
  "pediatric-child",
  "multi-source-overlap",
  "consent-partial",
  "source-unavailable",
  "consent-revoked",
  "rate-limited",
] as const;

/** Labs a subject's history grows to before vital signs are added too: more than one page of the category. */
const LAB_TARGET = 60;
const DAY_MS = 24 * 60 * 60 * 1000;

type ObservationKind = "laboratory" | "vital-signs";

/**
 * The FHIR Bundle the bench imports for its `index`th subject: a scenario's whole Bundle (the scenarios in turn) plus
 * `extra` earlier results of the same tests, as a patient with years of history has. Each copy is one of the
 * scenario's lab or vital-sign Observations moved back by whole months, with the value moved a little, so it is a
 * distinct clinical fact that normalizes to exactly one record. Labs are copied first, until the subject has
 * LAB_TARGET of them, then labs and vitals in turn. Deterministic in `index`, and the same for indexes with the same
 * bundleVariant.
 */
export function subjectBundle(index: number, extra: number): Bundle {
  const scenario = BENCH_SCENARIOS[index % BENCH_SCENARIOS.length]!;
  const bundle = scenarioBundle(scenario);
  const entries = bundle.entry ?? [];
  const observations = entries.map((entry) => entry.resource).filter((resource): resource is Observation => resource?.resourceType === "Observation");
  const labs = observations.filter((observation) => kindOf(observation) === "laboratory");
  const vitals = observations.filter((observation) => kindOf(observation) === "vital-signs");

  const copies: Observation[] = [];
  const rounds = { laboratory: 0, "vital-signs": 0 };
  let labCount = labs.length;
  let turn: ObservationKind = "laboratory";
  while (copies.length < extra) {
    const kind: ObservationKind = labCount < LAB_TARGET || vitals.length === 0 ? "laboratory" : turn;
    const source = kind === "laboratory" ? labs : vitals;
    if (source.length === 0) throw new Error(`scenario ${scenario} has no ${kind} Observations to copy`);
    rounds[kind] += 1;
    for (const original of source) {
      if (copies.length >= extra) break;
      copies.push(earlierResult(original, rounds[kind], index));
      if (kind === "laboratory") labCount += 1;
    }
    turn = turn === "laboratory" ? "vital-signs" : "laboratory";
  }
  bundle.entry = [...entries, ...copies.map((resource) => ({ fullUrl: `urn:uuid:${resource.id}`, resource: resource as FhirResource }))];
  return bundle;
}

/**
 * What of `index` its Bundle depends on: the scenario (index mod 7), how far back its copies go (mod 13) and how their
 * values move (index * 7 mod 21, so mod 3). Subjects with the same variant get equal Bundles (before normalization
 * gives each its own record ids), so a seed builds each variant's Bundle once.
 */
export function bundleVariant(index: number): number {
  return index % (BENCH_SCENARIOS.length * 13 * 3);
}

/** The scenario the `index`th subject's Bundle starts from. */
export function scenarioOf(index: number): (typeof BENCH_SCENARIOS)[number] {
  return BENCH_SCENARIOS[index % BENCH_SCENARIOS.length]!;
}

function kindOf(observation: Observation): ObservationKind | null {
  for (const category of observation.category ?? []) {
    for (const coding of category.coding ?? []) {
      if (coding.code === "laboratory" || coding.code === "vital-signs") return coding.code;
    }
  }
  return null;
}

/** The same test `round` visits earlier (about a month apart, offset per subject), with a slightly different value. */
function earlierResult(original: Observation, round: number, index: number): Observation {
  const copy = structuredClone(original);
  const days = round * 30 + (index % 13);
  const factor = 1 + (((index * 7 + round * 3) % 21) - 10) / 100;
  copy.id = `${original.id}-h${round}`;
  if (copy.effectiveDateTime) copy.effectiveDateTime = shifted(copy.effectiveDateTime, days);
  if (copy.issued) copy.issued = shifted(copy.issued, days);
  if (copy.effectivePeriod?.start) copy.effectivePeriod.start = shifted(copy.effectivePeriod.start, days);
  if (copy.effectivePeriod?.end) copy.effectivePeriod.end = shifted(copy.effectivePeriod.end, days);
  scale(copy.valueQuantity, factor);
  for (const component of copy.component ?? []) scale(component.valueQuantity, factor);
  return copy;
}

function shifted(time: string, days: number): string {
  const millis = Date.parse(time);
  return Number.isNaN(millis) ? time : new Date(millis - days * DAY_MS).toISOString();
}

function scale(quantity: Quantity | undefined, factor: number): void {
  if (quantity?.value === undefined) return;
  quantity.value = Math.round(quantity.value * factor * 100) / 100;
}
