"use client";

import { useQuery } from "@tanstack/react-query";
import { FastForward, Play, Square } from "lucide-react";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState, useTransition } from "react";
import { toast } from "sonner";
import { advanceRunAction, cancelRunAction, runStatusAction, startRunAction } from "@/app/(dashboard)/dashboard/[appId]/conformance/actions";
import { CheckList, PhaseTimeline, verdictText } from "@/components/conformance/report-view";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { ErrorPanel } from "@/components/ui/error-panel";
import { FormAlert } from "@/components/ui/field";
import type { RunResource } from "@/lib/conformance/schemas";

export type ScenarioChoice = { id: string; title: string; description: string };

const RADIO_CARD =
  "flex cursor-pointer gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-teal-700 has-[:checked]:bg-teal-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-teal-700 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60";

/** The scenario and sync mode pickers; starting answers the run with its key, shown once by the caller. */
function StartForm({ applicationId, scenarios, continuousAllowed, disabled, onStarted }: { applicationId: string; scenarios: ScenarioChoice[]; continuousAllowed: boolean; disabled: boolean; onStarted: (run: RunResource & { run_key: string }) => void }) {
  const [scenario, setScenario] = useState(scenarios[0]?.id ?? "");
  const [syncMode, setSyncMode] = useState<"one-time" | "continuous">(continuousAllowed ? "continuous" : "one-time");
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setRefusal(null);
    startTransition(async () => {
      const result = await startRunAction(applicationId, { scenario, syncMode });
      if (!result.ok) {
        setRefusal(result.error);
        toast.error(result.error);
        return;
      }
      toast.success(`Run ${result.value.id} started: configure your integration with its run key.`);
      onStarted(result.value);
    });
  }

  return (
    <form method="post" onSubmit={submit} className="space-y-4">
      <FormAlert message={refusal} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Scenario (its synthetic patient becomes the run&apos;s subject)</legend>
        <div className="mt-2 grid gap-2 md:grid-cols-3">
          {scenarios.map((option) => (
            <label key={option.id} className={RADIO_CARD}>
              <input type="radio" name="scenario" value={option.id} checked={scenario === option.id} onChange={() => setScenario(option.id)} className="mt-1 h-4 w-4 accent-teal-800" />
              <span className="min-w-0">
                <span className="block text-sm font-medium text-slate-900">{option.title}</span>
                <span className="block font-mono text-xs text-slate-600">{option.id}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Sync mode</legend>
        <div className="mt-2 grid gap-2 md:grid-cols-2">
          <label className={RADIO_CARD}>
            <input type="radio" name="sync_mode" value="one-time" checked={syncMode === "one-time"} onChange={() => setSyncMode("one-time")} className="mt-1 h-4 w-4 accent-teal-800" />
            <span className="text-sm">
              <span className="block font-medium text-slate-900">One-time</span>
              <span className="block text-xs text-slate-600">Session, forced 429s, revocation and webhook probes.</span>
            </span>
          </label>
          <label className={RADIO_CARD}>
            <input type="radio" name="sync_mode" value="continuous" checked={syncMode === "continuous"} disabled={!continuousAllowed} onChange={() => setSyncMode("continuous")} className="mt-1 h-4 w-4 accent-teal-800" />
            <span className="text-sm">
              <span className="block font-medium text-slate-900">Continuous</span>
              <span className="block text-xs text-slate-600">
                {continuousAllowed ? "Adds the change-feed check: the records change and must be read from the saved changeCursor." : "Needs an application whose sync mode is continuous (Settings)."}
              </span>
            </span>
          </label>
        </div>
      </fieldset>
      <Button type="submit" pending={pending} disabled={disabled || !scenario}>
        <Play aria-hidden="true" className="h-4 w-4" />
        {pending ? "Starting…" : "Start a run"}
      </Button>
      {disabled ? <p className="text-sm text-slate-600">One run may be open at a time: advance or cancel the open one first.</p> : null}
    </form>
  );
}

/** The open run, polled every second: what it waits for, its phases and checks so far; advance and cancel. */
function LiveRun({ applicationId, initial, onChanged, onEnded }: { applicationId: string; initial: RunResource; onChanged: () => void; onEnded: () => void }) {
  const query = useQuery({
    queryKey: ["conformance-run", applicationId, initial.id],
    queryFn: async () => {
      const result = await runStatusAction(applicationId, initial.id);
      if (!result.ok) throw new Error(result.error);
      return result.value;
    },
    initialData: initial,
    staleTime: 0,
    refetchInterval: (current) => (current.state.data?.status === "open" ? 1000 : false),
  });
  const run = query.data;
  const ended = run.status !== "open";
  // However the run ended (its last phase, an expiry, a cancel from elsewhere), its key no longer works.
  useEffect(() => {
    if (ended) onEnded();
  }, [ended, onEnded]);
  const [pending, startTransition] = useTransition();
  const act = (what: "advance" | "cancel") =>
    startTransition(async () => {
      const result = await (what === "advance" ? advanceRunAction : cancelRunAction)(applicationId, run.id);
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      toast.success(what === "advance" ? `Phase ended; the run is now ${result.value.phase === "ended" ? "over" : `in ${result.value.phase}`}.` : "Run cancelled; its run key is revoked.");
      await query.refetch();
      onChanged();
    });
  const verdict = verdictText(run);

  return (
    <Card>
      <CardHeader
        title={`Run ${run.id}`}
        description={`${run.scenario} · ${run.sync_mode}${run.status === "open" ? " · updating live every second" : ""}`}
        actions={
          run.status === "open" ? (
            <>
              <Button variant="secondary" size="sm" pending={pending} onClick={() => act("advance")}>
                <FastForward aria-hidden="true" className="h-4 w-4" />
                Advance phase
              </Button>
              <Button variant="danger" size="sm" pending={pending} onClick={() => act("cancel")}>
                <Square aria-hidden="true" className="h-4 w-4" />
                Cancel run
              </Button>
            </>
          ) : null
        }
      />
      <CardBody className="space-y-4">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={verdict.tone}>{verdict.label}</Badge>
          <span className="text-sm text-slate-700">{verdict.detail}</span>
        </div>
        <div aria-live="polite" data-testid="waiting-for">
          {run.waitingFor ? (
            <p className="rounded border border-sky-300 bg-sky-50 p-3 text-sm text-sky-900">
              <span className="font-semibold">Waiting for: </span>
              {run.waitingFor}
            </p>
          ) : null}
        </div>
        <CodeBlock code={run.links.reportPage} what="Report link" label="Shareable report (no key needed)" />
        <h3 className="text-sm font-semibold text-slate-900">Phases</h3>
        <PhaseTimeline phases={run.phases} />
        <h3 className="text-sm font-semibold text-slate-900">Checks</h3>
        <CheckList checks={run.checks} />
        {query.isError ? <ErrorPanel title="Could not refresh the run" message={query.error.message} retry={() => void query.refetch()} /> : null}
      </CardBody>
    </Card>
  );
}

/** Start a run, watch the open (or latest) one live, and show the run key the moment it is created. */
export function ConformancePanel({ applicationId, scenarios, continuousAllowed, latest }: { applicationId: string; scenarios: ScenarioChoice[]; continuousAllowed: boolean; latest: RunResource | null }) {
  const router = useRouter();
  const [current, setCurrent] = useState<RunResource | null>(latest);
  const [runKey, setRunKey] = useState<string | null>(null);
  const [open, setOpen] = useState(latest?.status === "open");
  const [keyRevoked, setKeyRevoked] = useState(false);
  const onEnded = useCallback(() => {
    setKeyRevoked(true);
    setOpen(false);
  }, []);

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Start a run" description="The run grades your integration as it talks to the sandbox: configure it with the run key, then create a Connect session with that key." />
        <CardBody>
          <StartForm
            applicationId={applicationId}
            scenarios={scenarios}
            continuousAllowed={continuousAllowed}
            disabled={open}
            onStarted={(run) => {
              const { run_key: key, ...resource } = run;
              setRunKey(key);
              setKeyRevoked(false);
              setCurrent(resource);
              setOpen(true);
              router.refresh();
            }}
          />
        </CardBody>
      </Card>
      {runKey && keyRevoked ? (
        <Card>
          <CardHeader title="Run key (revoked)" description="The run has ended, so its run key was revoked: requests made with it now answer 401 invalid_api_key. Start a new run for a new key." />
        </Card>
      ) : runKey ? (
        <Card>
          <CardHeader title="Run key (shown once)" description="A sandbox key whose requests are attributed to this run; it is revoked when the run ends. Store it now: it is not shown again." />
          <CardBody className="space-y-3">
            <CodeBlock code={runKey} what="Run key" />
            <p className="text-sm text-slate-700">
              Set it as your integration&apos;s API key, point the application&apos;s webhook URL at your receiver, and create a Connect session (POST /connect/sessions). The
              platform completes it as the scenario&apos;s patient and moves on from there.
            </p>
          </CardBody>
        </Card>
      ) : null}
      {current ? (
        <LiveRun
          key={current.id}
          applicationId={applicationId}
          initial={current}
          onEnded={onEnded}
          onChanged={() => {
            setOpen(false);
            router.refresh();
          }}
        />
      ) : null}
    </div>
  );
}
