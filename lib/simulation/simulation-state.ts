import { db } from "@/lib/db";
import { ApiError } from "@/lib/http";
import { SourceError } from "@/lib/sources";

export type SimulationState = "queued" | "connecting" | "importing" | "completed" | "failed";

/** Moves the session's `simulation.state`; `failed` carries the failure code, any other state clears it. */
export async function setSimulationState(sessionId: string, state: SimulationState, failureCode: string | null = null): Promise<void> {
  await db().connectSession.update({ where: { id: sessionId }, data: { simulationState: state, simulationFailureCode: state === "failed" ? failureCode ?? "simulation_failed" : null } });
}

/**
 * The code a simulation failure reports: the SMART client's (the health system could not be reached, refused, or
 * answered what FHIR does not promise), an API error's, or `simulation_failed` for anything else.
 */
export function failureCodeOf(error: unknown): string {
  if (error instanceof SourceError || error instanceof ApiError) return error.code;
  return "simulation_failed";
}
