import { requireSandbox, type KeyAuth } from "@/lib/auth";
import { TEFCA_ACTIVE_SESSION_LIMIT, TEFCA_SESSION_MINUTES } from "./limits";
import { TEFCA_CATEGORIES, TEFCA_NETWORK } from "./network";
import { TEFCA_STATES, type TefcaConfig } from "./schemas";

/** GET /tefca/config: the fixed fictional patient, the participants, the categories and the limits. */
export function getTefcaConfig(key: KeyAuth): TefcaConfig {
  requireSandbox(key);
  return tefcaConfigBody();
}

/** The configuration itself, the same for every application (the documents' example too). */
export function tefcaConfigBody(): TefcaConfig {
  return {
    object: "tefca_config",
    patientId: TEFCA_NETWORK.patientId,
    networkVersion: TEFCA_NETWORK.version,
    organizations: TEFCA_NETWORK.organizations,
    categories: [...TEFCA_CATEGORIES],
    states: [...TEFCA_STATES],
    limits: { activeSessionsPerApplication: TEFCA_ACTIVE_SESSION_LIMIT, sessionMinutes: TEFCA_SESSION_MINUTES },
  };
}
