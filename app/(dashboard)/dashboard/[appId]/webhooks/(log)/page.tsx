import type { Metadata } from "next";
import Link from "next/link";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { DeliveryRefusal, DeliveryStatusBadge, LastFailure, ResponseCode, utcTime } from "@/components/dashboard/webhooks/delivery-status";
import { EndpointForm } from "@/components/dashboard/webhooks/endpoint-form";
import { SendTestEventButton } from "@/components/dashboard/webhooks/send-test-event";
import { SigningSecret } from "@/components/dashboard/webhooks/signing-secret";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { privateWebhooksAllowed } from "@/lib/config";
import { requireApplication, requireEnrolment } from "@/lib/dashboard";
import { can } from "@/lib/team";
import { listDeliveries } from "@/lib/webhooks";
import { latestProductionRequest, signingSecretWindow } from "@/lib/applications";

export const metadata: Metadata = { title: "Webhooks" };

const STATUSES = ["pending", "succeeded", "failed"] as const;
const SELECT = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-teal-700 focus:outline-none focus:ring-2 focus:ring-teal-700/30";

type WebhooksSearch = { status?: string; cursor?: string };

export default async function WebhooksPage({ params, searchParams }: { params: Promise<{ appId: string }>; searchParams: Promise<WebhooksSearch> }) {
  const { appId } = await params;
  const search = await searchParams;
  const access = await requireApplication(appId);
  // The signing secret: an account that must have a second factor enrols first.
  await requireEnrolment(`/dashboard/${access.application.id}/webhooks`);
  const { application } = access;
  const status = STATUSES.find((value) => value === search.status);
  const [log, previousExpiresAt, productionRequest] = await Promise.all([
    // A cursor that was edited, or belongs to another application, reads as an empty page rather than an error.
    listDeliveries({ applicationId: application.id, status, cursor: search.cursor || undefined, limit: 25 }).catch(() => ({ items: [], nextCursor: null })),
    signingSecretWindow(application.id),
    latestProductionRequest(application.id),
  ]);
  const canManage = can(access.role, "application.manage");
  const base = `/dashboard/${application.id}/webhooks`;
  const older = log.nextCursor ? `${base}?${new URLSearchParams({ ...(status ? { status } : {}), cursor: log.nextCursor })}` : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Chartkey posts an event to your endpoint when consent is granted, revoked or expires and when records change. Each delivery is signed (Standard Webhooks) and retried for 24 hours until your endpoint answers 2xx."
      />
      <Card>
        <CardHeader title="Endpoint" description="One URL for both environments. The event's environment field says which one it came from." />
        <CardBody>
          <EndpointForm
            applicationId={application.id}
            webhookUrl={application.webhookUrl}
            rules={application.productionEnabled ? "live" : productionRequest?.status === "pending" ? "requested" : "sandbox"}
            canManage={canManage}
            localReceivers={privateWebhooksAllowed()}
          />
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Signing secret"
          description={
            <>
              Verify the <code className="font-mono text-xs">webhook-signature</code> header of every delivery with this secret, for example with the{" "}
              <code className="font-mono text-xs">standardwebhooks</code> library. Never accept an unverified request.
            </>
          }
        />
        <CardBody>
          <SigningSecret applicationId={application.id} isOwner={can(access.role, "webhooks.reveal_secret")} previousExpiresAt={previousExpiresAt?.toISOString() ?? null} />
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Deliveries"
          description="Newest first, with the latest attempt of each. Open an event to see the exact payload, every attempt, and to re-send it."
          actions={<SendTestEventButton applicationId={application.id} disabled={!canManage || !application.webhookUrl} />}
        />
        <CardBody className="space-y-4">
          <AutoRefresh active={log.items.some((delivery) => delivery.status === "pending")} />
          <form method="get" className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-label="Filter deliveries">
            <label className="text-sm font-medium text-slate-800 sm:w-48">
              Status
              <select name="status" defaultValue={status ?? ""} className={SELECT}>
                <option value="">Any status</option>
                {STATUSES.map((value) => (
                  <option key={value} value={value}>
                    {value[0]!.toUpperCase() + value.slice(1)}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" variant="secondary">
              Apply filter
            </Button>
          </form>
          {log.items.length === 0 ? (
            <EmptyState
              title={status || search.cursor ? "No matching deliveries" : "No deliveries yet"}
              description={
                status || search.cursor
                  ? "Nothing matches this filter on this page."
                  : application.webhookUrl
                    ? "Send a test event to see a signed delivery reach your endpoint."
                    : "Set an endpoint URL above, then send a test event."
              }
            />
          ) : (
            <Table caption="Webhook deliveries">
              <thead>
                <tr>
                  <Th>Event</Th>
                  <Th>Status</Th>
                  <Th>Response</Th>
                  <Th>Latency</Th>
                  <Th>Attempts</Th>
                  <Th>Next retry</Th>
                  <Th>Created</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {log.items.map((delivery) => (
                  <tr key={delivery.id} aria-label={`${delivery.eventType} ${delivery.id}`}>
                    <Td>
                      <Link href={`${base}/${delivery.id}`} className="whitespace-nowrap font-mono text-xs font-medium text-teal-800 underline underline-offset-2">
                        {delivery.eventType}
                        <span className="sr-only">, delivery {delivery.id}</span>
                      </Link>
                    </Td>
                    <Td>
                      <DeliveryStatusBadge status={delivery.status} attempts={delivery.attempts} />
                      <DeliveryRefusal status={delivery.status} error={delivery.lastError} />
                      <LastFailure status={delivery.status} attempts={delivery.attempts} error={delivery.lastError} />
                    </Td>
                    <Td>
                      <ResponseCode code={delivery.responseCode} />
                    </Td>
                    <Td className="whitespace-nowrap">{delivery.latencyMs === null ? "—" : `${delivery.latencyMs} ms`}</Td>
                    <Td>{delivery.attempts}</Td>
                    <Td className="whitespace-nowrap font-mono text-xs">{delivery.nextAttemptAt && delivery.attempts > 0 ? utcTime(delivery.nextAttemptAt) : "—"}</Td>
                    <Td className="whitespace-nowrap font-mono text-xs">{utcTime(delivery.createdAt)}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          <div className="flex gap-4">
            {search.cursor ? (
              <Link className="text-sm font-medium text-teal-800 underline underline-offset-2" href={status ? `${base}?status=${status}` : base}>
                Newest deliveries
              </Link>
            ) : null}
            {older ? (
              <Link className="text-sm font-medium text-teal-800 underline underline-offset-2" href={older}>
                Older deliveries
              </Link>
            ) : null}
          </div>
        </CardBody>
      </Card>
    </div>
  );
}
