import { platformOrigin } from "@/lib/config";
import { ApiError } from "@/lib/http";
import { PROVIDERS, type Provider } from "@/lib/sandbox";

/** Where a synthetic health system lives: everything under `/ehr/{providerId}` on the platform's own origin. */
export type EhrEndpoints = {
  /** `.../ehr/{id}`: the SMART configuration is also served here, as well as under the FHIR base. */
  base: string;
  /** The FHIR base URL: a token's audience (`aud`), and the prefix of every resource's fullUrl. */
  fhirBase: string;
  smartConfiguration: string;
  authorize: string;
  token: string;
  revoke: string;
};

export function ehrEndpoints(providerId: string): EhrEndpoints {
  const base = `${platformOrigin()}/ehr/${encodeURIComponent(providerId)}`;
  return {
    base,
    fhirBase: `${base}/fhir`,
    smartConfiguration: `${base}/fhir/.well-known/smart-configuration`,
    authorize: `${base}/authorize`,
    token: `${base}/token`,
    /** RFC 7009 token revocation, advertised in the SMART configuration as `revocation_endpoint`. */
    revoke: `${base}/revoke`,
  };
}

/** A fictional provider of the fixtures, or 404: each one is a synthetic health system. */
export function ehrProviderOr404(providerId: string): Provider {
  const provider = PROVIDERS.find((candidate) => candidate.id === providerId);
  if (!provider) throw new ApiError("not_found", `No synthetic health system ${providerId}.`);
  return provider;
}
