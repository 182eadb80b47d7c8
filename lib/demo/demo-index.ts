import type { z } from "zod";
import { demoPath } from "./links";
import { DATA_NOTICE } from "./notice";
import { defaultScenario, hasPatient, patientLinks } from "./scenario-manifest";
import type { demoIndexSchema } from "./schemas";

/** GET /demo/v1: what the demo serves, with links to every entry point and the default scenario's records. */
export function getDemoIndex(): z.infer<typeof demoIndexSchema> {
  const scenario = defaultScenario();
  return {
    name: "Chartkey demo API",
    description:
      "Keyless, read-only API over fixed fictional patients. It mirrors the platform's record shapes and simulates " +
      "the sandbox scenarios' behaviors; nothing is stored. Its MCP server (links.mcp, POST, stateless Streamable " +
      "HTTP) offers the same reads as tools to AI assistants.",
    default_scenario: scenario.id,
    links: {
      self: demoPath(),
      health: demoPath("health"),
      providers: demoPath("providers"),
      scenarios: demoPath("scenarios"),
      patients: demoPath("patients"),
      connect_sessions: demoPath("connect", "sessions"),
      ...(hasPatient(scenario) ? { default_records: patientLinks(scenario).records } : {}),
      fhir_metadata: demoPath("fhir", "metadata"),
      openapi: demoPath("openapi.json"),
      mcp: demoPath("mcp"),
      docs: "/docs",
    },
    notice: DATA_NOTICE,
  };
}
