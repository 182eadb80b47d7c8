import { auditExportStream, auditExportFormatSchema, auditFilterSchema, eachAuditEntry, listAuditEntries, type AuditFilter, type AuditScope } from "@/lib/audit";
import { findOperator } from "@/lib/operators";
import { can, getApplicationAccess } from "@/lib/team";
import { currentDeveloper } from "./current-developer";

type Query = URLSearchParams | Record<string, string | string[] | undefined>;

function single(query: Query, name: string): string | undefined {
  const value = query instanceof URLSearchParams ? query.get(name) : query[name];
  return (Array.isArray(value) ? value[0] : value) ?? undefined;
}

const FILTER_FIELDS = ["action", "actor", "from", "to"] as const;

function parseFilter(query: Query) {
  return auditFilterSchema.safeParse(Object.fromEntries(FILTER_FIELDS.map((field) => [field, single(query, field)])));
}

/** The filter with each field that parses; one that does not (an edited date, an unknown action) is left out. */
function lenientFilter(query: Query): AuditFilter {
  const fields = FILTER_FIELDS.map((field) => [field, auditFilterSchema.shape[field].safeParse(single(query, field))] as const);
  return Object.fromEntries(fields.flatMap(([field, parsed]) => (parsed.success && parsed.data !== undefined ? [[field, parsed.data]] : [])));
}

/**
 * The Security page's view: the filter its URL asks for (a field that does not parse, say an edited date, is left
 * out rather than failing the page) and the page of entries it selects.
 */
export async function auditTrailPage(scope: AuditScope, query: Query) {
  const filter = lenientFilter(query);
  const cursor = single(query, "cursor");
  const page = await listAuditEntries(scope, filter, { cursor, limit: 50 });
  return { filter, paged: Boolean(cursor), ...page };
}

function refusal(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store" } });
}

/** Who may export which scope: the application's members for `applicationId`, the operators for the deployment. */
async function exportScope(target: { applicationId: string } | "deployment"): Promise<AuditScope | null> {
  const developer = await currentDeveloper();
  if (!developer) return null;
  if (target === "deployment") return (await findOperator(developer.id)) ? { deployment: true } : null;
  const access = await getApplicationAccess(developer.id, target.applicationId);
  return access && can(access.role, "audit.read") ? { applicationId: access.application.id } : null;
}

/**
 * The export route's answer: every entry the filter selects, streamed as CSV or JSON for download. Someone who may
 * not read the trail gets the same 404 as for an application that does not exist; a bad filter a 400.
 */
export async function auditExportResponse(target: { applicationId: string } | "deployment", url: URL): Promise<Response> {
  const scope = await exportScope(target);
  if (!scope) return refusal(404, "not_found", "Not found.");
  const format = auditExportFormatSchema.safeParse(url.searchParams.get("format") ?? "csv");
  const filter = parseFilter(url.searchParams);
  if (!format.success || !filter.success) return refusal(400, "invalid_request", "Use format=csv or json, an action from the list, and dates as YYYY-MM-DD.");
  const stamp = new Date().toISOString().slice(0, 10);
  const name = `chartkey-audit-${"applicationId" in scope ? scope.applicationId : "deployment"}-${stamp}.${format.data}`;
  return new Response(auditExportStream(eachAuditEntry(scope, filter.data), format.data), {
    headers: {
      "Content-Type": format.data === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
