"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, Circle, CircleDot, XCircle } from "lucide-react";
import Link from "next/link";
import { sessionStatusAction } from "@/app/(dashboard)/dashboard/[appId]/sandbox/actions";
import type { ConnectSessionResource } from "@/lib/connect";
import { buttonClass } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Table, Td, Th } from "@/components/ui/table";
import { SimulateForm, type ScenarioOption } from "./simulate-form";
import { SessionStatusBadge, SimulationStateBadge, SyncStatusBadge } from "./status-badges";

const STEPS = ["queued", "connecting", "importing", "completed"] as const;
const STEP_TEXT: Record<(typeof STEPS)[number], string> = {
  queued: "Queued: the synthetic patient is claimed",
  connecting: "Connecting: signing in at the health system and consenting",
  importing: "Importing: reading the sources' FHIR records",
  completed: "Completed: every source imported",
};

/** Whether the session can still change by itself (so the panel keeps polling). */
export function sessionIsSettled(session: ConnectSessionResource): boolean {
  if (session.simulation) return session.simulation.state === "completed" || session.simulation.state === "failed";
  return session.status !== "pending" && session.sources.every((source) => source.status !== "pending" && source.status !== "syncing");
}

function Steps({ state, failureCode }: { state: string; failureCode: string | null }) {
  const reached = state === "failed" ? -1 : STEPS.indexOf(state as (typeof STEPS)[number]);
  return (
    <ol className="grid gap-2 sm:grid-cols-4" aria-label="Simulation progress">
      {STEPS.map((step, index) => {
        const done = reached > index || (step === "completed" && reached === index);
        const current = reached === index && step !== "completed";
        const Icon = done ? CheckCircle2 : current ? CircleDot : Circle;
        return (
          <li key={step} aria-current={current ? "step" : undefined} className={`flex items-start gap-2 rounded-md border p-3 text-sm ${done ? "border-emerald-300 bg-emerald-50 text-emerald-900" : current ? "border-sky-300 bg-sky-50 text-sky-900" : "border-slate-200 text-slate-700"}`}>
            <Icon aria-hidden="true" className={`mt-0.5 h-4 w-4 shrink-0 ${current ? "animate-pulse" : ""}`} />
            <span>{STEP_TEXT[step]}</span>
          </li>
        );
      })}
      {state === "failed" ? (
        <li className="flex items-start gap-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 sm:col-span-4">
          <XCircle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <span>
            Failed with <code>{failureCode ?? "simulation_failed"}</code>: the API reports it in <code>simulation.failureCode</code>, not as an error.
          </span>
        </li>
      ) : null}
    </ol>
  );
}

/**
 * A session's live state: `simulation.state` and each source's sync status and record count, polled through a server
 * action every second until the simulation ends (or, for a session a patient completes in the hosted flow, until
 * it settles).
 */
export function SessionProgress({ applicationId, initial, scenarios }: { applicationId: string; initial: ConnectSessionResource; scenarios: ScenarioOption[] }) {
  const queryClient = useQueryClient();
  const queryKey = ["sandbox-session", applicationId, initial.id];
  const query = useQuery({
    queryKey,
    queryFn: async () => {
      const result = await sessionStatusAction(applicationId, initial.id);
      if (!result.ok) throw new Error(result.error);
      return result.value;
    },
    initialData: initial,
    staleTime: 0,
    refetchInterval: (current) => (current.state.data && sessionIsSettled(current.state.data) ? false : current.state.data?.status === "pending" && !current.state.data.simulation ? 3000 : 1000),
  });
  const session = query.data;
  const simulation = session.simulation;
  const settled = sessionIsSettled(session);

  return (
    <div className="space-y-6">
      {session.status === "pending" && !simulation ? (
        <Card>
          <CardHeader title="Waiting for the patient" description="Open the hosted flow to connect as a patient, or let a scenario's synthetic patient complete it." />
          <CardBody className="space-y-4">
            <CodeBlock code={session.connectUrl} what="Connect link" label={`Hosted Connect link (expires ${session.expiresAt})`} />
            <a href={session.connectUrl} target="_blank" rel="noopener noreferrer" className={buttonClass("primary", "sm")}>
              Open the hosted flow<span className="sr-only"> (opens in a new tab)</span>
            </a>
            <h3 className="pt-2 text-sm font-semibold text-slate-900">Or simulate it</h3>
            <SimulateForm applicationId={applicationId} scenarios={scenarios} sessionId={session.id} onSimulated={(next) => queryClient.setQueryData(queryKey, next)} />
          </CardBody>
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title={simulation ? `Simulation: ${simulation.scenario}` : "Session state"}
          description={settled ? "Finished; nothing more will change by itself." : "Updating live every second."}
          actions={
            session.subject ? (
              <Link className={buttonClass("primary", "sm")} href={`/dashboard/${applicationId}/sandbox/subjects/${session.subject}`}>
                Open subject {session.subject}
              </Link>
            ) : null
          }
        />
        <CardBody className="space-y-4">
          <dl className="grid gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-slate-600">Session status</dt>
              <dd className="mt-1">
                <SessionStatusBadge status={session.status} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">simulation.state</dt>
              <dd className="mt-1" data-testid="simulation-state" aria-live="polite">
                {simulation ? <SimulationStateBadge state={simulation.state} /> : <span className="text-slate-700">not simulated</span>}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Granted categories</dt>
              <dd className="mt-1 break-words text-slate-800">{session.grantedCategories.length > 0 ? session.grantedCategories.join(", ") : "none yet"}</dd>
            </div>
          </dl>
          {simulation ? <Steps state={simulation.state} failureCode={simulation.failureCode} /> : null}
          {query.isError ? <ErrorPanel title="Could not refresh the session" message={query.error.message} retry={() => void query.refetch()} /> : null}
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Sources" description="Each health system the patient connected, its sync status and what its latest import produced." />
        <CardBody>
          {session.sources.length === 0 ? (
            <p className="text-sm text-slate-600">No source connected yet.</p>
          ) : (
            <Table caption="Sources of the session">
              <thead>
                <tr>
                  <Th>Health system</Th>
                  <Th>Status</Th>
                  <Th>Records</Th>
                  <Th>Skipped</Th>
                  <Th>Error</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {session.sources.map((source) => (
                  <tr key={source.sourceId}>
                    <Td>
                      <span className="font-medium">{source.providerName}</span>
                      <span className="block font-mono text-xs text-slate-600">{source.sourceId}</span>
                    </Td>
                    <Td>
                      <SyncStatusBadge status={source.status} />
                    </Td>
                    <Td>{source.recordCount}</Td>
                    <Td>{source.skippedCount}</Td>
                    <Td className="text-xs">{source.error ?? "—"}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
