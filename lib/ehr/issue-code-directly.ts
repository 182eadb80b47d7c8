import { ApiError } from "@/lib/http";
import { issueAuthorizationCode } from "./authorization-codes";
import { checkAuthorizationRequest, redirectWith } from "./authorization-request";
import { findEhrPatient } from "./patients";

/**
 * The sandbox simulation's sign-in: what Allow on the authorization page does, without the page. The
 * authorization URL the SMART client built is checked exactly as the page checks it, and a code is issued for the
 * given patient; the answer is the callback URL (redirect URI with `code` and `state`) the browser would have been
 * sent to. A request the page would refuse throws, since there is no browser to show it to.
 */
export async function issueAuthorizationCodeDirectly(input: { authorizationUrl: string; patientKey: string }): Promise<string> {
  const url = new URL(input.authorizationUrl);
  const match = /^\/ehr\/([^/]+)\/authorize$/.exec(url.pathname);
  if (!match?.[1]) throw new Error(`${url.pathname} is not a synthetic health system's authorization endpoint`);
  const providerId = decodeURIComponent(match[1]);
  const check = checkAuthorizationRequest(providerId, url.searchParams);
  if (check.outcome === "error-page") throw new ApiError("invalid_request", check.message);
  if (check.outcome === "redirect-error") throw new ApiError("invalid_request", `${check.error}: ${check.description}`);
  const patient = findEhrPatient(providerId, input.patientKey);
  if (!patient) throw new ApiError("not_found", `No synthetic patient ${input.patientKey} at ${providerId}.`);
  const code = await issueAuthorizationCode(check.request, patient);
  return redirectWith(check.request.redirectUri, { code, state: check.request.state });
}
