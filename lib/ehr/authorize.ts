import { issueAuthorizationCode } from "./authorization-codes";
import { checkAuthorizationRequest, redirectWith, type AuthorizationRequest } from "./authorization-request";
import { negotiateLocale, translatorFor, type Locale } from "@/lib/i18n";
import { consentPageBody, errorPageBody } from "./authorize-page";
import { htmlPageResponse } from "./html";
import { ehrPatients } from "./patients";

/**
 * The page's language: OpenID's `ui_locales` (which Chartkey's SMART client sends as the patient's Connect
 * language, and the page's own language links set), then the browser's Accept-Language. A separate system from the
 * platform, it reads none of the platform's cookies.
 */
function pageLocaleOf(request: Request, parameters: URLSearchParams): Locale {
  return negotiateLocale({ uiLocales: parameters.get("ui_locales"), acceptLanguage: request.headers.get("accept-language") });
}

function seeOther(location: string): Response {
  // 303: the browser follows a POST's answer with a GET, never re-posting the form to the client.
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

function consentPage(request: Request, authorization: AuthorizationRequest, parameters: URLSearchParams, options: { selected?: string | null; problem?: string; status?: number } = {}) {
  const locale = pageLocaleOf(request, parameters);
  return htmlPageResponse(request, {
    title: translatorFor(locale)("ehr.signInTo", { provider: authorization.provider.name }),
    locale,
    status: options.status,
    redirectOrigin: new URL(authorization.redirectUri).origin,
    body: consentPageBody({
      request: authorization,
      patients: ehrPatients(authorization.provider.id),
      parameters,
      locale,
      selected: options.selected,
      problem: options.problem,
    }),
  });
}

/** Runs the checks of RFC 6749 §4.1.2.1; returns the page or redirect for a failure, or the valid request. */
function checked(request: Request, providerId: string, parameters: URLSearchParams): Response | AuthorizationRequest {
  const check = checkAuthorizationRequest(providerId, parameters);
  if (check.outcome === "error-page") {
    const locale = pageLocaleOf(request, parameters);
    return htmlPageResponse(request, { title: translatorFor(locale)("ehr.refusedTitle"), locale, status: check.status, body: errorPageBody(check.message, locale) });
  }
  if (check.outcome === "redirect-error") {
    return seeOther(redirectWith(check.redirectUri, { error: check.error, error_description: check.description, state: check.state }));
  }
  return check.request;
}

/** GET /ehr/{providerId}/authorize: the request checked, then the page. */
export function showEhrAuthorization(providerId: string, request: Request): Response {
  const parameters = new URL(request.url).searchParams;
  const result = checked(request, providerId, parameters);
  return result instanceof Response ? result : consentPage(request, result, parameters);
}

async function formOf(request: Request): Promise<URLSearchParams | null> {
  const contentType = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/x-www-form-urlencoded") return null;
  return new URLSearchParams(await request.text());
}

/**
 * POST /ehr/{providerId}/authorize: the page's form. The forwarded request is checked again (a form is as
 * untrusted as a URL); Deny returns access_denied, Allow issues a code for the chosen patient.
 */
export async function decideEhrAuthorization(providerId: string, request: Request): Promise<Response> {
  const form = await formOf(request);
  if (!form) {
    const locale = pageLocaleOf(request, new URLSearchParams());
    return htmlPageResponse(request, { title: translatorFor(locale)("ehr.refusedTitle"), locale, status: 415, body: errorPageBody("The form was not sent as a form.", locale) });
  }
  const result = checked(request, providerId, form);
  if (result instanceof Response) return result;
  const decision = form.get("decision");
  if (decision === "deny") {
    return seeOther(redirectWith(result.redirectUri, { error: "access_denied", error_description: "The patient denied access.", state: result.state }));
  }
  const patientKey = form.get("patient");
  const patient = ehrPatients(providerId).find((candidate) => candidate.patientKey === patientKey);
  if (decision !== "allow" || !patient) {
    const problem = translatorFor(pageLocaleOf(request, form))("ehr.problemChoose");
    return consentPage(request, result, form, { selected: patientKey, problem, status: 400 });
  }
  const code = await issueAuthorizationCode(result, patient);
  return seeOther(redirectWith(result.redirectUri, { code, state: result.state }));
}
