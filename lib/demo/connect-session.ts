import type { z } from "zod";
import { ApiError } from "@/lib/http";
import { findScenario } from "@/lib/sandbox";
import { demoPath } from "./links";
import { DATA_NOTICE } from "./notice";
import { parseCategoryList } from "@/lib/records";
import { DEFAULT_SCENARIO_ID, hasPatient, patientLinks } from "./scenario-manifest";
import type { ConnectSessionRequest, connectSessionResultSchema } from "./schemas";

type ConnectSessionResult = z.infer<typeof connectSessionResultSchema>;

/**
 * POST /connect/sessions: computes what a Connect session for the scenario would end with; nothing is stored.
 * The patient grants the requested categories the scenario's consent covers (all of it when none are named).
 */
export function createDemoConnectSession(request: ConnectSessionRequest): ConnectSessionResult {
  const scenarioId = request.scenario ?? DEFAULT_SCENARIO_ID;
  const scenario = findScenario(scenarioId);
  if (!scenario) {
    throw new ApiError("invalid_scenario", `Unknown scenario ${scenarioId}; GET ${demoPath("scenarios")} lists them.`);
  }
  const requested = request.categories === undefined ? null : parseCategoryList(request.categories);
  const base = { scenario: scenario.id, external_user_id: request.external_user_id, persisted: false as const, notice: DATA_NOTICE };

  if (scenario.sessionOutcome || !hasPatient(scenario)) {
    return {
      ...base,
      status: scenario.sessionOutcome?.status ?? "failed",
      categories: [],
      patient_id: null,
      subject: null,
      failure_code: scenario.sessionOutcome?.failureCode ?? null,
      links: { scenario: demoPath("scenarios", scenario.id) },
    };
  }

  const granted = requested === null ? [...scenario.consentCategories] : requested.filter((c) => scenario.consentCategories.includes(c));
  if (granted.length === 0) {
    throw new ApiError(
      "invalid_categories",
      `Scenario ${scenario.id} can share only ${scenario.consentCategories.join(", ")}; none of the requested categories.`,
    );
  }
  return {
    ...base,
    status: "complete",
    categories: granted,
    patient_id: scenario.patientId,
    subject: scenario.subject,
    failure_code: null,
    links: { scenario: demoPath("scenarios", scenario.id), ...patientLinks(scenario) },
  };
}
