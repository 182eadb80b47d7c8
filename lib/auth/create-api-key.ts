import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { generateApiKey, type Environment } from "./api-key-format";

/** Creates a key and returns it in clear exactly once; only its SHA-256 hash is stored. */
export async function createApiKey(
  input: { applicationId: string; environment: Environment; name?: string; conformanceRunId?: string },
  tx: Tx = db(),
): Promise<{ id: string; key: string; displayPrefix: string }> {
  const generated = generateApiKey(input.environment);
  const id = newId("key_");
  await tx.apiKey.create({
    data: {
      id,
      applicationId: input.applicationId,
      environment: input.environment,
      name: input.name ?? "Default key",
      displayPrefix: generated.displayPrefix,
      secretHash: generated.secretHash,
      conformanceRunId: input.conformanceRunId ?? null,
    },
  });
  return { id, key: generated.key, displayPrefix: generated.displayPrefix };
}
