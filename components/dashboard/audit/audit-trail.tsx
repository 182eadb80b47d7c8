import Link from "next/link";
import { Button, buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { INPUT_CLASS } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { AUDIT_ACTIONS, type AuditEntryView, type AuditFilter } from "@/lib/audit";

const SELECT = `${INPUT_CLASS} mt-1`;

/** The filter as a query string (empty fields left out), shared by the form's links, paging and the exports. */
export function auditQuery(filter: AuditFilter, extra: Record<string, string> = {}): string {
  const entries = Object.entries({ ...filter, ...extra }).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "");
  const query = new URLSearchParams(entries).toString();
  return query ? `?${query}` : "";
}

function utc(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** A recorded state as one line: `field: value` pairs, lists joined, a secret's change shown as the flag it is. */
function describe(state: Record<string, unknown> | null): string {
  if (!state) return "—";
  const parts = Object.entries(state).map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") || "none" : value === null ? "none" : String(value)}`);
  return parts.length ? parts.join(" · ") : "—";
}

type AuditTrailProps = {
  entries: AuditEntryView[];
  filter: AuditFilter;
  /** The page's path: the filter form submits to it and "Older entries" pages through it. */
  path: string;
  /** Older entries' cursor, when there are more. */
  nextCursor: string | null;
  paged: boolean;
  caption: string;
  /** The deployment-wide view names each entry's application. */
  showApplication?: boolean;
};

/**
 * The audit trail with its filters (action, actor, date range), paging newest first and both exports of what the
 * filter selects. A plain GET form, so the filtered view is a URL an auditor can bookmark or share with a colleague.
 */
export function AuditTrail({ entries, filter, path, nextCursor, paged, caption, showApplication = false }: AuditTrailProps) {
  const filtered = Boolean(filter.action || filter.actor || filter.from || filter.to);
  return (
    <div className="space-y-4">
      {/* Keyed by the filter: its fields are uncontrolled, so after "Clear" (a client navigation) they must remount
          to show the filter the page now applies, not what was typed before. */}
      <form key={auditQuery(filter)} method="get" action={path} aria-label="Filter the audit trail" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto_auto] lg:items-end">
        <label className="text-sm font-medium text-slate-800">
          Action
          <select name="action" defaultValue={filter.action ?? ""} className={SELECT}>
            <option value="">Any action</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-800">
          Actor
          <input name="actor" type="search" defaultValue={filter.actor ?? ""} placeholder="Email, key prefix or id" className={SELECT} />
        </label>
        <label className="text-sm font-medium text-slate-800">
          From (UTC)
          <input name="from" type="date" defaultValue={filter.from ?? ""} className={SELECT} />
        </label>
        <label className="text-sm font-medium text-slate-800">
          To (UTC)
          <input name="to" type="date" defaultValue={filter.to ?? ""} className={SELECT} />
        </label>
        <div className="flex gap-2">
          <Button type="submit" variant="secondary">
            Apply filters
          </Button>
          {filtered ? (
            <Link href={path} className={buttonClass("ghost")}>
              Clear
            </Link>
          ) : null}
        </div>
      </form>
      <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <span>Export {filtered ? "the filtered entries" : "every entry"}:</span>
        <a href={`${path}/export${auditQuery(filter, { format: "csv" })}`} className={buttonClass("secondary", "sm")} download>
          CSV
        </a>
        <a href={`${path}/export${auditQuery(filter, { format: "json" })}`} className={buttonClass("secondary", "sm")} download>
          JSON
        </a>
      </div>
      {entries.length === 0 ? (
        <EmptyState
          title={filtered || paged ? "No matching entries" : "Nothing recorded yet"}
          description={filtered || paged ? "No entry matches these filters." : "Sign-ins, key, webhook, team and setting changes appear here as they happen."}
        />
      ) : (
        <Table caption={caption}>
          <thead>
            <tr>
              <Th>When (UTC)</Th>
              <Th>Action</Th>
              <Th>Actor</Th>
              <Th>Address</Th>
              {showApplication ? <Th>Application</Th> : null}
              <Th>Target</Th>
              <Th>Change</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {entries.map((entry) => (
              <tr key={entry.id}>
                <Td className="whitespace-nowrap font-mono text-xs">{utc(entry.createdAt)}</Td>
                <Td className="whitespace-nowrap font-mono text-xs">{entry.action}</Td>
                <Td className="text-xs">
                  {entry.actorLabel ?? entry.actorId ?? "—"}
                  <span className="block text-slate-600">{entry.actorType}</span>
                </Td>
                <Td className="whitespace-nowrap font-mono text-xs">{entry.address}</Td>
                {showApplication ? <Td className="font-mono text-xs">{entry.applicationId ?? "—"}</Td> : null}
                <Td className="font-mono text-xs">
                  {entry.targetType}
                  <span className="block break-all">{entry.targetId}</span>
                </Td>
                <Td className="min-w-56 text-xs">
                  <span className="block">
                    <span className="font-medium text-slate-600">Before:</span> {describe(entry.before)}
                  </span>
                  <span className="block">
                    <span className="font-medium text-slate-600">After:</span> {describe(entry.after)}
                  </span>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {nextCursor ? (
        <Link href={`${path}${auditQuery(filter, { cursor: nextCursor })}`} className={buttonClass("secondary")}>
          Older entries
        </Link>
      ) : null}
    </div>
  );
}
