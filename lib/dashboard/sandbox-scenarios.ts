import { SCENARIOS, type SandboxControl } from "@/lib/sandbox";

export type SandboxScenarioChoice = {
  id: string;
  title: string;
  description: string;
  kind: "record" | "behavior";
  sourceCount: number;
  categories: string[];
  controls: SandboxControl[];
};

/** The scenarios a dashboard simulation can play (those with a synthetic patient), in manifest order. */
export function sandboxScenarios(): SandboxScenarioChoice[] {
  return SCENARIOS.filter((scenario) => scenario.kind !== "session" && scenario.patientId !== null && scenario.sources.length > 0).map((scenario) => ({
    id: scenario.id,
    title: scenario.title,
    description: scenario.description,
    kind: scenario.kind as "record" | "behavior",
    sourceCount: scenario.sources.length,
    categories: [...scenario.consentCategories],
    controls: [...scenario.controls],
  }));
}
