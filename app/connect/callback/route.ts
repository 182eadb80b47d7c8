import { cookies } from "next/headers";
import { linkPage } from "@/components/connect/link-page";
import { finishSignIn } from "@/lib/connect";
import { requestLocale, translatorFor } from "@/lib/i18n";
import { SIGN_IN_COOKIE_PREFIX } from "../[token]/sign-in-cookie";

export const dynamic = "force-dynamic";

/** Where health systems send the patient back after signing in: attach the source, then back to the flow. */
export async function GET(request: Request): Promise<Response> {
  const jar = await cookies();
  const outcome = await finishSignIn(request.url, (state) => jar.has(`${SIGN_IN_COOKIE_PREFIX}${state}`));
  if (!outcome) {
    const locale = requestLocale(request);
    const t = translatorFor(locale);
    return linkPage(request, { status: 400, locale, title: t("link.callbackTitle"), message: t("link.callback") });
  }
  const state = new URL(request.url).searchParams.get("state");
  if (state) jar.delete(`${SIGN_IN_COOKIE_PREFIX}${state}`);
  const next = new URL(`/connect/${outcome.token}/sign-in`, request.url);
  if (outcome.error) next.searchParams.set("error", outcome.error);
  // A plain response, not Response.redirect, whose headers are immutable and would drop the cookie deletion.
  return new Response(null, { status: 303, headers: { Location: next.toString() } });
}
