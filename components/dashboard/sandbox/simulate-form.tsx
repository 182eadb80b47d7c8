"use client";

import { Play } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { simulateAction } from "@/app/(dashboard)/dashboard/[appId]/sandbox/actions";
import type { ConnectSessionResource } from "@/lib/connect";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/field";

export type ScenarioOption = { id: string; title: string; description: string; sourceCount: number; controls: string[] };

/**
 * Picks a scenario and simulates it: on the given pending session, or on a new session asking for every allowlisted
 * category the scenario's patient shares. Opens the session's live progress.
 */
export function SimulateForm({
  applicationId,
  scenarios,
  sessionId,
  onSimulated,
}: {
  applicationId: string;
  scenarios: ScenarioOption[];
  /** Simulate this pending session instead of a new one; `onSimulated` then receives the session. */
  sessionId?: string;
  onSimulated?: (session: ConnectSessionResource) => void;
}) {
  const router = useRouter();
  const [scenario, setScenario] = useState(scenarios[0]?.id ?? "");
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setRefusal(null);
    startTransition(async () => {
      const result = await simulateAction(applicationId, { scenario, sessionId });
      if (!result.ok) {
        setRefusal(result.error);
        toast.error(result.error);
        return;
      }
      toast.success(`Simulating ${scenario} on ${result.value.id}: the synthetic patient consented; importing now.`);
      if (sessionId) onSimulated?.(result.value);
      else router.push(`/dashboard/${applicationId}/sandbox/sessions/${result.value.id}`);
    });
  }

  return (
    <form method="post" onSubmit={submit} className="space-y-4">
      <FormAlert message={refusal} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Scenario</legend>
        <div className="mt-2 grid gap-2 md:grid-cols-2">
          {scenarios.map((option) => (
            <label
              key={option.id}
              className="flex cursor-pointer gap-3 rounded-md border border-slate-200 p-3 has-[:checked]:border-teal-700 has-[:checked]:bg-teal-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-teal-700"
            >
              <input type="radio" name="scenario" value={option.id} checked={scenario === option.id} onChange={() => setScenario(option.id)} className="mt-1 h-4 w-4 accent-teal-800" />
              <span className="min-w-0">
                <span className="block text-sm font-medium text-slate-900">{option.title}</span>
                <span className="block font-mono text-xs text-slate-600">
                  {option.id} · {option.sourceCount === 1 ? "1 source" : `${option.sourceCount} sources`}
                </span>
                <span className="mt-1 block text-xs text-slate-600">{option.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" pending={pending} disabled={!scenario}>
        <Play aria-hidden="true" className="h-4 w-4" />
        {pending ? "Simulating…" : "Simulate"}
      </Button>
    </form>
  );
}
