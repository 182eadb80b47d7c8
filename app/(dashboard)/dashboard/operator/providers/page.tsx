import type { Metadata } from "next";
import Link from "next/link";
import { AddProviderForm, DiscoveryDetails, ProviderControls, RerunSyncButton } from "@/components/dashboard/operator/provider-directory";
import { ImportOutcome, startedText } from "@/components/dashboard/sources/import-history";
import { Table, Td, Th } from "@/components/ui/table";
import { PROVIDER_SYNC_WINDOW_DAYS, providerSyncSummaries, type ProviderSyncSummary } from "@/lib/imports";
import { Badge } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { CALLBACK_PATH } from "@/lib/connect";
import { dashboardOrigin, requireOperatorPage } from "@/lib/dashboard";
import { listLiveProviders } from "@/lib/provider-directory";
import { CopyableValue } from "@/components/ui/copyable-value";

export const metadata: Metadata = { title: "Provider directory" };

export default async function ProviderDirectoryPage() {
  const operator = await requireOperatorPage();
  const [providers, origin] = await Promise.all([listLiveProviders(operator.id), dashboardOrigin()]);
  const syncs = await providerSyncSummaries(providers.map((provider) => provider.id));
  return (
    <div className="space-y-8">
      <PageHeader
        title="Provider directory"
        description="The live health systems patients can connect. Each is added by its FHIR base URL: the platform reads its SMART configuration and CapabilityStatement, under the outbound rules (public https addresses, unless the deployment names a private host)."
        actions={
          <Link href="/dashboard/operator" className={buttonClass("secondary")}>
            Applications and audit log
          </Link>
        }
      />
      <Card>
        <CardHeader title="Add a health system" description="Look it up first to see what the platform finds, then add it with the client id (and secret) the health system registered for this platform." />
        <CardBody className="space-y-4">
          <div className="space-y-1 text-sm text-slate-700">
            <p>Register this redirect URI with the health system when it registers this platform as a client (patients return to it after signing in):</p>
            <CopyableValue value={`${origin}${CALLBACK_PATH}`} what="Redirect URI" />
          </div>
          <AddProviderForm />
        </CardBody>
      </Card>
      <section aria-labelledby="directory-providers" className="space-y-3">
        <h2 id="directory-providers" className="text-lg font-semibold text-slate-900">
          Live providers
        </h2>
        {providers.length === 0 ? (
          <EmptyState title="No live providers yet" description="Until one is added, live Connect sessions have no health system to offer." />
        ) : (
          <ul className="space-y-4">
            {providers.map((provider) => (
              <li key={provider.id}>
                <Card>
                  <div role="group" aria-labelledby={`provider-${provider.id}`}>
                    <CardHeader
                      headingId={`provider-${provider.id}`}
                      title={provider.name}
                      description={
                        <>
                          {provider.location ? <span className="block">{provider.location}</span> : null}
                          <CopyableValue value={provider.fhirBaseUrl} what="FHIR base URL" />
                        </>
                      }
                      actions={
                        <>
                          {provider.disabled ? <Badge tone="neutral">Disabled</Badge> : <Badge tone="success">Enabled</Badge>}
                          {provider.checkError ? <Badge tone="danger">Last test failed</Badge> : provider.checkedAt ? <Badge tone="info">Last test passed</Badge> : null}
                        </>
                      }
                    />
                    <CardBody className="space-y-4 text-sm">
                      {provider.checkError ? (
                        <p role="status" className="rounded-md border border-red-200 bg-red-50 p-3 text-red-900">
                          Last test ({provider.checkedAt?.toISOString().slice(0, 16).replace("T", " ")} UTC): {provider.checkError}
                        </p>
                      ) : null}
                      <p className="text-slate-700">
                        Client id <CopyableValue value={provider.clientId} what="Client id" /> · {provider.hasSecret ? "secret stored (encrypted)" : "public client (no secret)"}
                      </p>
                      {provider.discovery ? <DiscoveryDetails discovery={provider.discovery} /> : null}
                      <ProviderSyncs providerId={provider.id} providerName={provider.name} summary={syncs.get(provider.id)!} />
                      <ProviderControls provider={provider} />
                    </CardBody>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function rateText(summary: ProviderSyncSummary): string {
  const ended = summary.completed + summary.failed;
  if (summary.successRate === null) return `No sync ended in the last ${PROVIDER_SYNC_WINDOW_DAYS} days`;
  return `${Math.round(summary.successRate * 1000) / 10}% succeeded (${summary.completed} of ${ended} in the last ${PROVIDER_SYNC_WINDOW_DAYS} days${summary.running ? `, ${summary.running} running` : ""})`;
}

/** The provider's syncs across every subject: success rate over the window, the latest failures, and re-runs. */
function ProviderSyncs({ providerId, providerName, summary }: { providerId: string; providerName: string; summary: ProviderSyncSummary }) {
  return (
    <section aria-labelledby={`syncs-${providerId}`} className="space-y-3 border-t border-slate-100 pt-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`syncs-${providerId}`} className="font-semibold text-slate-900">
          Syncs of {providerName}
        </h3>
        {summary.rerunnable > 0 ? (
          <RerunSyncButton target={{ providerId }} label={`Re-run all ${summary.rerunnable === 1 ? "1 sync" : `${summary.rerunnable} syncs`} of ${providerName}`} />
        ) : null}
      </div>
      <p data-testid="provider-success-rate" className={summary.failed > 0 ? "text-red-900" : "text-slate-700"}>
        {rateText(summary)}
      </p>
      {summary.lastFailures.length > 0 ? (
        <Table caption={`Latest failed syncs of ${providerName}`}>
          <thead>
            <tr>
              <Th>Started</Th>
              <Th>Application and subject</Th>
              <Th>Outcome</Th>
              <Th>Re-run</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {summary.lastFailures.map((failure) => (
              <tr key={failure.id}>
                <Td className="whitespace-nowrap font-mono text-xs">{startedText(failure.startedAt)}</Td>
                <Td className="text-xs">
                  <span className="block">{failure.applicationName}</span>
                  <span className="block font-mono text-slate-600">{failure.subjectId}</span>
                </Td>
                <Td className="min-w-48">
                  <ImportOutcome entry={failure} />
                </Td>
                <Td>
                  <RerunSyncButton target={{ sourceId: failure.sourceId }} label="Re-run" accessibleName={`Re-run the sync of ${providerName} for subject ${failure.subjectId}`} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
    </section>
  );
}
