import { decryptSecret } from "@/lib/auth";
import { db, type Prisma } from "@/lib/db";
import { ensureSandboxProviders } from "./sandbox-providers";
import { SourceError } from "./source-error";

export type ProviderRow = Prisma.ProviderModel;

/** A provider's row, the sandbox ones created on first use. */
export async function findProvider(providerId: string): Promise<ProviderRow> {
  await ensureSandboxProviders();
  const provider = await db().provider.findUnique({ where: { id: providerId } });
  if (!provider) throw new SourceError("provider_unavailable", `No provider ${providerId} is configured.`);
  return provider;
}

/** The client secret the provider issued us, decrypted only for the request that sends it. */
export function providerClientSecret(provider: ProviderRow): string | null {
  return provider.clientSecretEncrypted === "" ? null : decryptSecret(provider.clientSecretEncrypted);
}
