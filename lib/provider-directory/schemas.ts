import { z } from "zod";

const name = z.string().trim().min(2, "Name the health system (at least 2 characters).").max(200);
const clientId = z.string().trim().min(1, "Enter the client id the health system registered for this platform.").max(500);
/** Where patients know it from (city, region), for Connect's search; optional. */
const location = z.string().trim().max(200);
/** Empty for a public client (PKCE only); otherwise stored encrypted and never shown again. */
const clientSecret = z.string().trim().max(2000);

export const providerUrlInputSchema = z.object({ fhirBaseUrl: z.string().trim().min(1, "Enter the FHIR base URL.").max(2000) });

export const createProviderInputSchema = z.object({ name, location: location.default(""), fhirBaseUrl: providerUrlInputSchema.shape.fhirBaseUrl, clientId, clientSecret: clientSecret.default("") });
export type CreateProviderInput = z.input<typeof createProviderInputSchema>;

/** An edit: a blank secret keeps the stored one. */
export const updateProviderInputSchema = z.object({ name, location: location.optional(), clientId, clientSecret: clientSecret.optional() });
export type UpdateProviderInput = z.input<typeof updateProviderInputSchema>;
