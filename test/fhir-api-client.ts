import type { Bundle, OperationOutcome } from "fhir/r4";
import { afterAll, beforeAll } from "vitest";
import { startApiServer } from "@/test/api-server";

export type FhirAnswer = { status: number; headers: Headers; body: Bundle & Pick<OperationOutcome, "issue"> & { id?: string } };

/**
 * The platform's API served over real HTTP for a test file (started before its tests, closed after them), and a GET
 * of its FHIR API as an application makes one: `get("Observation?patient=...", key)`.
 */
export function fhirApiForFile(): { origin: () => string; get: (path: string, token: string) => Promise<FhirAnswer> } {
  let server: Awaited<ReturnType<typeof startApiServer>> | undefined;
  beforeAll(async () => {
    server = await startApiServer();
  });
  afterAll(async () => server?.close());
  const origin = () => {
    if (!server) throw new Error("the API server is started before the file's tests (fhirApiForFile at the file's top level)");
    return server.origin;
  };
  return {
    origin,
    get: async (path, token) => {
      const response = await fetch(`${origin()}/api/v1/fhir/${path}`, { headers: { Authorization: `Bearer ${token}` } });
      return { status: response.status, headers: response.headers, body: (await response.json()) as FhirAnswer["body"] };
    },
  };
}
