import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, Td, Th } from "@/components/ui/table";
import type { ImportHistoryEntry } from "@/lib/imports";

const TRIGGER_TEXT: Record<ImportHistoryEntry["trigger"], string> = { connect: "Connect", schedule: "schedule", rerun: "re-run" };
const OUTCOME_TONE = { completed: "success", failed: "danger", running: "info" } as const;

/** How long an import took, as people read it: "850 ms", "12.4 s", "3 min 5 s". */
export function durationText(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The time an import started, to the second, in UTC. */
export const startedText = (date: Date) => `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;

/** An import's outcome: its status and, when it failed, the code and message it failed with. */
export function ImportOutcome({ entry }: { entry: ImportHistoryEntry }) {
  return (
    <>
      <Badge tone={OUTCOME_TONE[entry.status]}>{entry.status}</Badge>
      {entry.code ? <code className="ml-2 font-mono text-xs font-semibold text-red-800">{entry.code}</code> : null}
      {entry.message ? <span className="mt-0.5 block break-words text-xs text-slate-700">{entry.message}</span> : null}
    </>
  );
}

/** One source's import history, newest first: when each ran, what started it, how it ended, what it read and changed. */
export function ImportHistoryTable({ providerName, entries }: { providerName: string; entries: ImportHistoryEntry[] }) {
  if (entries.length === 0) return <EmptyState title="No imports yet" description={`${providerName} has not been imported for this subject.`} />;
  return (
    <Table caption={`Import history of ${providerName}`}>
      <thead>
        <tr>
          <Th>Started</Th>
          <Th>Trigger</Th>
          <Th>Outcome</Th>
          <Th>Duration</Th>
          <Th>Resources read</Th>
          <Th>Records changed</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {entries.map((entry) => (
          <tr key={entry.id} data-testid="import-history-row">
            <Td className="whitespace-nowrap font-mono text-xs">{startedText(entry.startedAt)}</Td>
            <Td className="text-xs">{TRIGGER_TEXT[entry.trigger] ?? entry.trigger}</Td>
            <Td className="min-w-48">
              <ImportOutcome entry={entry} />
            </Td>
            <Td className="whitespace-nowrap text-xs">{durationText(entry.durationMs)}</Td>
            <Td className="text-xs">{entry.status === "completed" ? entry.resourcesRead : "—"}</Td>
            <Td className="text-xs">{entry.status === "completed" ? entry.recordsChanged : "—"}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Every source of a subject with its history and, where the viewer may, a button that re-runs its sync now. */
export function SubjectImportHistory({
  sources,
  histories,
  action,
}: {
  sources: readonly { id: string; providerName: string }[];
  histories: Map<string, ImportHistoryEntry[]>;
  action?: (source: { id: string; providerName: string }) => ReactNode;
}) {
  if (sources.length === 0) return <EmptyState title="No sources" description="The subject has no health system connected." />;
  return (
    <div className="space-y-6">
      {sources.map((source) => (
        <section key={source.id} aria-labelledby={`history-${source.id}`} className="space-y-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 id={`history-${source.id}`} className="text-sm font-semibold text-slate-900">
              {source.providerName}
            </h3>
            {action?.(source)}
          </div>
          <ImportHistoryTable providerName={source.providerName} entries={histories.get(source.id) ?? []} />
        </section>
      ))}
    </div>
  );
}
