import { providerPrivateHosts } from "@/lib/config";
import type { ProviderRow } from "./providers";

/**
 * Whether the SMART client may talk plain http to `url` of this provider: sandbox providers run on this deployment's
 * own origin (http in development); a live provider must use https unless its host is named in
 * CHARTKEY_PROVIDER_PRIVATE_HOSTS (a health system on the deployment's own network, README).
 */
export function plainHttpAllowed(provider: Pick<ProviderRow, "environment">, url: string): boolean {
  if (provider.environment === "sandbox") return true;
  return providerPrivateHosts().includes(new URL(url).hostname.replace(/^\[|\]$/g, ""));
}
