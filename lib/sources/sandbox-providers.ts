import { encryptSecret } from "@/lib/auth";
import { platformOrigin } from "@/lib/config";
import { db } from "@/lib/db";
import { ehrEndpoints, SANDBOX_CLIENT_ID, sandboxClientSecret } from "@/lib/ehr";
import { PROVIDERS } from "@/lib/sandbox";
import { processState } from "@/lib/process-state";

// One run per origin and process: later calls wait for the first. A failed run is forgotten, so the next call
// tries again.
const ensured = processState("sources.sandbox-providers-ensured", () => new Map<string, Promise<void>>());

async function upsertSandboxProviders(): Promise<void> {
  await db().$transaction(
    PROVIDERS.map((provider) => {
      const endpoints = ehrEndpoints(provider.id);
      const registration = {
        environment: "sandbox" as const,
        name: provider.name,
        fhirBaseUrl: endpoints.fhirBase,
        authorizeUrl: endpoints.authorize,
        tokenUrl: endpoints.token,
        clientId: SANDBOX_CLIENT_ID,
        clientSecretEncrypted: encryptSecret(sandboxClientSecret(provider.id)),
      };
      // The update keeps the rows right when the origin (CHARTKEY_PUBLIC_URL, PORT) or CHARTKEY_SECRET changed.
      return db().provider.upsert({ where: { id: provider.id }, create: { id: provider.id, ...registration }, update: registration });
    }),
  );
}

/**
 * Makes sure every synthetic health system has its `Provider` row (id = provider id, environment sandbox, its URLs
 * under this deployment's origin, the sandbox client id and the client secret encrypted at rest), exactly as an
 * operator registers a live provider. Idempotent; runs once per process unless the origin changes.
 */
export async function ensureSandboxProviders(): Promise<void> {
  const origin = platformOrigin();
  let run = ensured.get(origin);
  if (!run) {
    run = upsertSandboxProviders().catch((error: unknown) => {
      ensured.delete(origin);
      throw error;
    });
    ensured.set(origin, run);
  }
  await run;
}
