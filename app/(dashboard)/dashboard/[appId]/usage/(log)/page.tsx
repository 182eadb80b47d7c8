import type { Metadata } from "next";
import Link from "next/link";
import { RequestFilters } from "@/components/dashboard/usage/request-filters";
import { UsageChart } from "@/components/dashboard/usage/usage-chart";
import { Badge } from "@/components/ui/badge";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Td } from "@/components/ui/table";
import { listKeysFor } from "@/lib/applications";
import { requireApplication } from "@/lib/dashboard";
import { ApiError } from "@/lib/http";
import { agentReads, latencyPercentiles, recentRequests, requestsPerDay, statusFilterSchema } from "@/lib/usage";

export const metadata: Metadata = { title: "Usage" };

const RANGES = [7, 14, 30] as const;
const DAY_MS = 86_400_000;

type UsageSearch = { days?: string; status?: string; key?: string; cursor?: string };

function percent(rate: number): string {
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 2 : 1)}%`;
}

function milliseconds(value: number | null): string {
  return value === null ? "—" : `${Math.round(value)} ms`;
}

/** A log row's time, linking to the request's detail (path, key, credential purpose). */
function RequestLink({ href, at }: { href: string; at: Date }) {
  const time = at.toISOString().replace("T", " ").slice(0, 19);
  return (
    <Link href={href} className="text-teal-800 underline underline-offset-2" aria-label={`Details of the request at ${time} UTC`}>
      {time}
    </Link>
  );
}

function statusTone(status: number) {
  return status >= 500 ? "danger" : status >= 400 ? "warning" : "success";
}

export default async function UsagePage({ params, searchParams }: { params: Promise<{ appId: string }>; searchParams: Promise<UsageSearch> }) {
  const { appId } = await params;
  const search = await searchParams;
  const access = await requireApplication(appId);
  const applicationId = access.application.id;
  const days = RANGES.find((range) => String(range) === search.days) ?? 14;
  const status = statusFilterSchema.safeParse(search.status || undefined);
  const statusFilter = search.status && status.success ? status.data : undefined;
  const keys = await listKeysFor(access);
  const apiKeyId = keys.some((key) => key.id === search.key) ? search.key : undefined;
  const now = new Date();
  const [daily, latency, log, agents] = await Promise.all([
    requestsPerDay({ applicationId, days, now }),
    latencyPercentiles({ applicationId, since: new Date(now.getTime() - days * DAY_MS) }),
    // An edited or foreign cursor in the link (400 invalid_cursor) shows an empty page; anything else is an error.
    recentRequests({ applicationId, status: statusFilter, apiKeyId, cursor: search.cursor || undefined, limit: 50 }).catch((error: unknown) => {
      if (error instanceof ApiError) return { items: [], nextCursor: null };
      throw error;
    }),
    agentReads({ applicationId, limit: 50 }),
  ]);
  const total = daily.totals.reduce((sum, day) => sum + day.total, 0);
  const clientErrors = daily.totals.reduce((sum, day) => sum + day.clientErrors, 0);
  const serverErrors = daily.totals.reduce((sum, day) => sum + day.serverErrors, 0);
  // Requests per day per key, newest day first: the chart's numbers for screen readers and for support.
  const perDayPerKey = [...daily.rows].reverse().map((row) => ({ ...row, label: row.keyName ?? "No key (failed authentication)" }));
  const base = `/dashboard/${applicationId}/usage`;
  const query = (extra: Record<string, string | undefined>) =>
    `${base}?${new URLSearchParams(Object.entries({ days: String(days), status: search.status, key: apiKeyId, ...extra }).filter((entry): entry is [string, string] => Boolean(entry[1])))}`;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Usage"
        description="Every request made with this application's keys: volume, errors and latency. Times are UTC."
        actions={
          <nav aria-label="Range" className="flex gap-1">
            {RANGES.map((range) => (
              <Link
                key={range}
                href={`${base}?days=${range}`}
                aria-current={range === days ? "page" : undefined}
                className={`rounded-md px-3 py-1.5 text-sm font-medium ${range === days ? "bg-teal-800 text-white" : "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50"}`}
              >
                {range} days
              </Link>
            ))}
          </nav>
        }
      />
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[
          ["Requests", total.toLocaleString("en-US")],
          ["Error rate (4xx / 5xx)", `${percent(total ? clientErrors / total : 0)} / ${percent(total ? serverErrors / total : 0)}`],
          ["Latency p50", milliseconds(latency.p50)],
          ["Latency p99", milliseconds(latency.p99)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-4">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <Card>
        <CardHeader title="Requests per day" description={`The last ${days} days, by outcome, with the share of errors.`} />
        <CardBody>
          {total === 0 ? (
            <EmptyState title="No requests in this range" description="Call the API with one of this application's keys and it shows here within seconds." />
          ) : (
            <>
              <UsageChart
                days={daily.totals.map((day) => ({
                  day: day.day,
                  ok: day.total - day.clientErrors - day.serverErrors,
                  clientErrors: day.clientErrors,
                  serverErrors: day.serverErrors,
                  errorRate: day.clientErrorRate + day.serverErrorRate,
                }))}
              />
              <details className="mt-4">
                <summary className="cursor-pointer text-sm font-medium text-teal-800">Per day and key, as a table</summary>
                <DataTable caption="Requests per day and key" columns={["Day (UTC)", "Key", "Requests", "4xx", "5xx"]} rows={perDayPerKey}>
                  {(entry) => (
                    <tr key={`${entry.day}-${entry.apiKeyId ?? "none"}`}>
                      <Td className="whitespace-nowrap font-mono text-xs">{entry.day}</Td>
                      <Td>{entry.label}</Td>
                      <Td>{entry.total}</Td>
                      <Td>{entry.clientErrors}</Td>
                      <Td>{entry.serverErrors}</Td>
                    </tr>
                  )}
                </DataTable>
              </details>
            </>
          )}
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Agent reads: who read what, and why"
          description="Requests made with delegated credentials (POST /agent-credentials), newest first, with the purpose each credential was issued for."
        />
        <CardBody>
          <DataTable
            caption="Agent reads"
            columns={["Time (UTC)", "Credential", "Purpose", "Subject", "Read", "Status"]}
            rows={agents}
            empty={{ title: "No agent reads yet", description: "Issue a delegated credential for a subject and give its token to your agent: each of its requests shows here." }}
          >
            {(read) => (
              <tr key={read.id}>
                <Td className="whitespace-nowrap font-mono text-xs">
                  <RequestLink href={`${base}/requests/${read.id}`} at={read.createdAt} />
                </Td>
                <Td className="font-mono text-xs">{read.credentialId}</Td>
                <Td className="min-w-48 text-sm">{read.purpose ?? "—"}</Td>
                <Td className="font-mono text-xs">{read.subjectId ?? "—"}</Td>
                <Td className="font-mono text-xs">{read.route}</Td>
                <Td>
                  <Badge tone={statusTone(read.status)}>{read.status}</Badge>
                  {read.errorCode ? <span className="ml-2 font-mono text-xs">{read.errorCode}</span> : null}
                </Td>
              </tr>
            )}
          </DataTable>
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Recent requests" description="Newest first; open a request's time for its detail. Quote the request id to support: it is in every response's Request-Id header." />
        <CardBody className="space-y-4">
          <RequestFilters days={days} status={search.status} apiKeyId={apiKeyId} keys={keys.map((key) => ({ id: key.id, label: `${key.name} (${key.displayPrefix}…)` }))} />
          <DataTable
            caption="Recent requests"
            columns={["Time (UTC)", "Method", "Route", "Status", "Error code", "Latency", "Key", "Request id"]}
            rows={log.items}
            empty={{ title: "No matching requests", description: search.status || apiKeyId ? "Nothing matches these filters yet." : "Requests appear here a moment after they are made." }}
          >
            {(request) => (
              <tr key={request.id}>
                <Td className="whitespace-nowrap font-mono text-xs">
                  <RequestLink href={`${base}/requests/${request.id}`} at={request.createdAt} />
                </Td>
                <Td className="font-mono text-xs">{request.method}</Td>
                <Td className="font-mono text-xs break-all">{request.route.replace(/^[A-Z]+ /, "")}</Td>
                <Td>
                  <Badge tone={statusTone(request.status)}>{request.status}</Badge>
                </Td>
                <Td className="font-mono text-xs">{request.errorCode ?? ""}</Td>
                <Td className="whitespace-nowrap">{request.latencyMs} ms</Td>
                <Td className="whitespace-nowrap text-xs">{request.keyName ?? "—"}</Td>
                <Td className="font-mono text-xs break-all">{request.requestId}</Td>
              </tr>
            )}
          </DataTable>
          {log.nextCursor ? (
            <Link className="inline-block text-sm font-medium text-teal-800 underline underline-offset-2" href={query({ cursor: log.nextCursor })}>
              Older requests
            </Link>
          ) : null}
        </CardBody>
      </Card>
    </div>
  );
}
