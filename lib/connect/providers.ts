import { db } from "@/lib/db";
import { PROVIDERS } from "@/lib/sandbox";

export type ProviderChoice = { id: string; name: string; location: string; description: string };

/**
 * The health systems a patient may pick: the fictional ones in the sandbox; in live, the directory's providers an
 * operator has not disabled (lib/provider-directory).
 */
export async function availableProviders(environment: "sandbox" | "live"): Promise<ProviderChoice[]> {
  if (environment === "sandbox") {
    return PROVIDERS.map((provider) => ({ id: provider.id, name: provider.name, location: `${provider.city}, ${provider.state}`, description: provider.description }));
  }
  const rows = await db().provider.findMany({ where: { environment: "live", disabledAt: null }, orderBy: { name: "asc" } });
  return rows.map((row) => ({ id: row.id, name: row.name, location: row.location, description: "" }));
}
