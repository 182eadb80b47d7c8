import { z } from "zod";
import { checkProviderUrl, guardedGet } from "@/lib/outbound";
import { smartConfigurationSchema } from "@/lib/sources";

/** What the platform found at a health system, as the operator sees it and as the provider row keeps it. */
export type ProviderDiscovery = {
  authorizeUrl: string;
  tokenUrl: string;
  capabilities: string[];
  scopesSupported: string[];
  fhirVersion: string | null;
  software: string | null;
  resourceTypes: string[];
};

export type DiscoveryResult = { ok: true; fhirBaseUrl: string; discovery: ProviderDiscovery } | { ok: false; fhirBaseUrl: string; reason: string };

const capabilityStatementSchema = z.object({
  resourceType: z.literal("CapabilityStatement"),
  fhirVersion: z.string().optional(),
  software: z.object({ name: z.string().optional(), version: z.string().optional() }).optional(),
  rest: z.array(z.object({ mode: z.string().optional(), resource: z.array(z.object({ type: z.string() })).optional() })).optional(),
});

async function getJson(url: string, accept: string): Promise<{ ok: true; json: unknown } | { ok: false; reason: string }> {
  const answer = await guardedGet(url, { accept });
  if (!answer.ok) return answer;
  if (answer.status !== 200) return { ok: false, reason: `${url} answered HTTP ${answer.status}` };
  try {
    return { ok: true, json: JSON.parse(answer.body) };
  } catch {
    return { ok: false, reason: `${url} did not answer JSON` };
  }
}

/**
 * Reads a health system's `.well-known/smart-configuration` and its CapabilityStatement (`/metadata`), every
 * request under the outbound rules (lib/outbound). Refused with a reason the operator reads: an unreachable or
 * refused address, a configuration without the OAuth endpoints or without PKCE S256 (the SMART client never
 * authorizes without it), endpoints that break the outbound rules themselves, or a server that is not FHIR R4.
 */
export async function discoverProvider(rawBaseUrl: string): Promise<DiscoveryResult> {
  const fhirBaseUrl = rawBaseUrl.trim().replace(/\/+$/, "");
  const fail = (reason: string): DiscoveryResult => ({ ok: false, fhirBaseUrl, reason });
  const configuration = await getJson(`${fhirBaseUrl}/.well-known/smart-configuration`, "application/json");
  if (!configuration.ok) return fail(configuration.reason);
  const smart = smartConfigurationSchema.safeParse(configuration.json);
  if (!smart.success) return fail("the SMART configuration lacks authorization_endpoint or token_endpoint");
  if (!smart.data.code_challenge_methods_supported?.includes("S256")) return fail("the SMART configuration does not offer PKCE with S256");
  for (const endpoint of [smart.data.authorization_endpoint, smart.data.token_endpoint]) {
    const checked = checkProviderUrl(endpoint);
    if (!checked.ok) return fail(`refused ${endpoint}: ${checked.reason}`);
  }
  const metadata = await getJson(`${fhirBaseUrl}/metadata`, "application/fhir+json");
  if (!metadata.ok) return fail(metadata.reason);
  const capability = capabilityStatementSchema.safeParse(metadata.json);
  if (!capability.success) return fail("/metadata did not answer a CapabilityStatement");
  const fhirVersion = capability.data.fhirVersion ?? null;
  if (fhirVersion && !fhirVersion.startsWith("4.0")) return fail(`the server speaks FHIR ${fhirVersion}; the platform reads FHIR R4 (4.0.x)`);
  const server = capability.data.rest?.find((rest) => rest.mode === "server") ?? capability.data.rest?.[0];
  const software = capability.data.software?.name ? [capability.data.software.name, capability.data.software.version].filter(Boolean).join(" ") : null;
  return {
    ok: true,
    fhirBaseUrl,
    discovery: {
      authorizeUrl: smart.data.authorization_endpoint,
      tokenUrl: smart.data.token_endpoint,
      capabilities: smart.data.capabilities ?? [],
      scopesSupported: smart.data.scopes_supported ?? [],
      fhirVersion,
      software,
      resourceTypes: (server?.resource ?? []).map((resource) => resource.type).sort(),
    },
  };
}
