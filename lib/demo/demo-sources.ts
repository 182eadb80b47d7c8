import { stableId } from "@/lib/ids";
import { PROVIDERS, type ScenarioSource } from "@/lib/sandbox";
import type { PatientScenario } from "./scenario-manifest";

export type DemoSource = {
  key: string;
  providerId: string;
  sourceId: string;
  sourceName: string;
  /** False for the sources the source-unavailable scenario cannot reach. */
  available: boolean;
};

export type SyncState = {
  syncStatus: "complete" | "partial";
  warnings: { code: "source_unavailable"; message: string; sourceId: string }[];
};

/**
 * The patient's connected sources. In the source-unavailable scenario every source after the first fails, so its
 * records are missing from the read.
 */
export function demoSources(scenario: PatientScenario): DemoSource[] {
  return scenario.sources.map((source, index) => ({
    key: source.key,
    providerId: source.providerId,
    // Per subject, like the platform's source ids, so no id links two demo patients.
    sourceId: stableId("src_", scenario.subject, source.key),
    sourceName: providerName(source),
    available: !(scenario.behavior === "source_unavailable" && index > 0),
  }));
}

export function syncState(scenario: PatientScenario): SyncState {
  const unavailable = demoSources(scenario).filter((source) => !source.available);
  return {
    syncStatus: unavailable.length > 0 ? "partial" : "complete",
    warnings: unavailable.map((source) => ({
      code: "source_unavailable",
      message: `${source.sourceName} could not be reached; its records are missing from this read.`,
      sourceId: source.sourceId,
    })),
  };
}

function providerName(source: ScenarioSource): string {
  const provider = PROVIDERS.find((candidate) => candidate.id === source.providerId);
  if (!provider) throw new Error(`Scenario source ${source.key} names unknown provider ${source.providerId}`);
  return provider.name;
}
