import { operatorEmails } from "@/lib/config";
import { db } from "@/lib/db";
import { deliverEmailQuietly, linkTo, renderEmail } from "@/lib/email";
import { DEFAULT_LOCALE, isLocale } from "@/lib/i18n";

type Account = { id: string; email: string; name: string; locale: string };
const ACCOUNT = { id: true, email: true, name: true, locale: true } as const;

/** The deployment's operators as accounts (lib/operators/operator-role.ts: the named ones, else the first account). */
async function operatorAccounts(): Promise<Account[]> {
  const named = operatorEmails();
  if (named.length > 0) return db().developer.findMany({ where: { email: { in: named } }, select: ACCOUNT });
  const first = await db().developer.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: ACCOUNT });
  return first ? [first] : [];
}

const localeOf = (account: Account) => (isLocale(account.locale) ? account.locale : DEFAULT_LOCALE);

/**
 * Tells every operator, each in their language, that an application asked for production (its pending request),
 * with a link to the Operator page. Delivery failures are logged, never thrown: the request stands either way.
 */
export async function emailOperatorsOfProductionRequest(applicationId: string, origin?: string): Promise<number> {
  const request = await db().productionRequest.findFirst({
    where: { applicationId, status: "pending" },
    orderBy: { createdAt: "desc" },
    select: { requestedById: true, contactEmail: true, application: { select: { name: true } } },
  });
  if (!request) return 0;
  const requester = await db().developer.findUnique({ where: { id: request.requestedById }, select: { email: true } });
  let sent = 0;
  for (const operator of await operatorAccounts()) {
    const rendered = renderEmail(localeOf(operator), {
      kind: "production_request",
      name: operator.name,
      address: operator.email,
      link: linkTo("/dashboard/operator", origin),
      application: request.application.name,
      requester: requester?.email ?? request.contactEmail,
    });
    if (await deliverEmailQuietly({ ...rendered, to: operator.email, kind: "production_request", developerId: operator.id })) sent++;
  }
  return sent;
}

/** Tells the application's owners, each in their language, that an operator approved or refused its production request. */
export async function emailOwnersOfProductionDecision(requestId: string, origin?: string): Promise<number> {
  const request = await db().productionRequest.findUnique({
    where: { id: requestId },
    select: { status: true, decisionReason: true, applicationId: true, application: { select: { name: true, members: { where: { role: "owner" }, select: { developer: { select: ACCOUNT } } } } } },
  });
  if (!request || (request.status !== "approved" && request.status !== "refused")) return 0;
  let sent = 0;
  for (const { developer: owner } of request.application.members) {
    const common = { name: owner.name, address: owner.email, application: request.application.name };
    const rendered =
      request.status === "approved"
        ? renderEmail(localeOf(owner), { kind: "production_approved", ...common, link: linkTo(`/dashboard/${request.applicationId}`, origin) })
        : renderEmail(localeOf(owner), { kind: "production_refused", ...common, reason: request.decisionReason ?? "", link: linkTo(`/dashboard/${request.applicationId}/settings`, origin) });
    if (await deliverEmailQuietly({ ...rendered, to: owner.email, kind: `production_${request.status}`, developerId: owner.id })) sent++;
  }
  return sent;
}
