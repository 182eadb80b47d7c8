import { ApiError } from "@/lib/http";
import type { Category } from "@/lib/records";
import { demoNow } from "./clock";
import { requestedCategories } from "./requested-categories";
import type { PatientScenario } from "./scenario-manifest";
import { enforceScenarioBehavior } from "./scenario-behavior";

export const SCENARIO_HEADER = "X-Service-Scenario";

/**
 * The checks both record routes share, in the spec's order: the categories are validated first, then the
 * scenario's simulated error (429, 410, 403) applies. Behavior scenarios name themselves in X-Service-Scenario.
 */
export function authorizeRecordRead(
  scenario: PatientScenario,
  categoriesParam: string | undefined,
  setHeader: (name: string, value: string) => void,
): Category[] {
  if (scenario.behavior) setHeader(SCENARIO_HEADER, scenario.id);
  const categories = requestedCategories(categoriesParam ?? null, scenario.consentCategories);
  enforceScenarioBehavior(scenario, categories, demoNow());
  return categories;
}

/** The normalized record route takes no pagination or change-feed parameters: only `categories`. */
export function rejectUnsupportedQuery(url: URL): void {
  const unsupported = [...new Set(url.searchParams.keys())].filter((name) => name !== "categories");
  if (unsupported.length === 0) return;
  throw new ApiError(
    "invalid_query",
    `Unsupported query parameter${unsupported.length > 1 ? "s" : ""}: ${unsupported.join(", ")}. ` +
      "The demo record takes only categories; it has no pagination or change feed.",
  );
}
