import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { DeliveryStatusBadge, ResponseCode, utcTime } from "@/components/dashboard/webhooks/delivery-status";
import { ResendDeliveryButton } from "@/components/dashboard/webhooks/send-test-event";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, Td, Th } from "@/components/ui/table";
import { requireApplication } from "@/lib/dashboard";
import { can } from "@/lib/team";
import { deliveryFix, getDelivery } from "@/lib/webhooks";
import { CopyableValue } from "@/components/ui/copyable-value";

export const metadata: Metadata = { title: "Webhook delivery" };

export default async function DeliveryPage({ params }: { params: Promise<{ appId: string; deliveryId: string }> }) {
  const { appId, deliveryId } = await params;
  const access = await requireApplication(appId);
  // Another application's delivery is "not found", exactly like one that does not exist.
  const delivery = await getDelivery(access.application.id, deliveryId);
  if (!delivery) notFound();
  const base = `/dashboard/${access.application.id}/webhooks`;
  const pending = delivery.status === "pending";
  const lastError = delivery.attempts.at(-1)?.error ?? null;
  const fix = delivery.status === "failed" ? deliveryFix(lastError) : null;
  const refusal = fix && lastError ? { error: lastError, fix } : null;

  return (
    <div className="space-y-6">
      <Link href={base} className="text-sm font-medium text-teal-800 underline underline-offset-2">
        ← All deliveries
      </Link>
      <PageHeader
        title={delivery.event.type}
        description={
          <>
            <span className="mr-4">
              Delivery <CopyableValue value={delivery.id} what="Delivery id" />
            </span>
            <span>
              of event <CopyableValue value={delivery.event.id} what="Event id" />
            </span>
          </>
        }
        actions={<ResendDeliveryButton applicationId={access.application.id} deliveryId={delivery.id} disabled={!can(access.role, "application.manage")} />}
      />
      <AutoRefresh active={pending} />
      <Card>
        <CardBody>
          <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <div>
              <dt className="text-slate-600">Status</dt>
              <dd className="mt-1">
                <DeliveryStatusBadge status={delivery.status} attempts={delivery.attempts.length} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Environment</dt>
              <dd className="mt-1 text-slate-900">{delivery.event.environment}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Event created</dt>
              <dd className="mt-1 font-mono text-xs text-slate-900">{utcTime(delivery.event.createdAt)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Next retry</dt>
              <dd className="mt-1 font-mono text-xs text-slate-900">{pending && delivery.attempts.length > 0 ? utcTime(delivery.nextAttemptAt) : "—"}</dd>
            </div>
            <div className="sm:col-span-2 lg:col-span-4">
              <dt className="text-slate-600">Sent to</dt>
              <dd className="mt-1">
                <CopyableValue value={delivery.url} what="Endpoint URL" />
              </dd>
            </div>
          </dl>
          {refusal ? (
            <p className="mt-4 text-sm text-slate-800" role="note">
              Not delivered: <span className="font-mono text-xs text-red-800">{refusal.error}</span>. {refusal.fix}
            </p>
          ) : null}
          {pending ? <p className="mt-4 text-sm text-slate-600">Still being delivered: this page refreshes by itself. Fixed your endpoint? Re-send now instead of waiting for the next retry.</p> : null}
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Attempts" description="Each try, with your endpoint's answer (the first 500 characters) or why no answer came." />
        <CardBody>
          {delivery.attempts.length === 0 ? (
            <EmptyState title="No attempt yet" description="The first attempt is made within seconds." />
          ) : (
            <Table caption="Delivery attempts">
              <thead>
                <tr>
                  <Th>#</Th>
                  <Th>Time</Th>
                  <Th>Response</Th>
                  <Th>Latency</Th>
                  <Th>Answer or error</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {delivery.attempts.map((attempt) => (
                  <tr key={attempt.attempt}>
                    <Td>{attempt.attempt}</Td>
                    <Td className="whitespace-nowrap font-mono text-xs">{utcTime(attempt.createdAt)}</Td>
                    <Td>
                      <ResponseCode code={attempt.responseCode} />
                    </Td>
                    <Td className="whitespace-nowrap">{attempt.latencyMs} ms</Td>
                    {/* The endpoint's own answer beside the status: "HTTP 500" alone does not say what broke. Only an
                        answer that came is shown (a refused address is never connected to, so it has none). */}
                    <Td className="max-w-md break-words font-mono text-xs">
                      {attempt.error ? <span className="block">{attempt.error}</span> : null}
                      {attempt.responseExcerpt ? <span className="mt-1 block whitespace-pre-wrap text-slate-700">{attempt.responseExcerpt}</span> : null}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Payload" description="The exact body that was signed and posted; every attempt and re-send carries the same one." />
        <CardBody className="space-y-4">
          <CodeBlock code={delivery.payload} what="Payload" label="Body as sent" />
          <details>
            <summary className="cursor-pointer text-sm font-medium text-teal-800">Formatted for reading</summary>
            <div className="mt-2">
              <CodeBlock code={JSON.stringify(JSON.parse(delivery.payload), null, 2)} what="Formatted payload" />
            </div>
          </details>
        </CardBody>
      </Card>
    </div>
  );
}
