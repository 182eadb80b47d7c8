import { SyncStatusBadge } from "@/components/dashboard/sandbox/status-badges";
import { Table, Td, Th } from "@/components/ui/table";
import type { LiveSourceView, ScheduleState } from "@/lib/dashboard";

const STOPPED: Record<Extract<ScheduleState, { kind: "stopped" }>["reason"], string> = {
  one_time: "None: one-time consent imports once",
  suspended: "Stopped: the application is suspended",
  disconnected: "Stopped: the source was disconnected",
  consent_revoked: "Stopped: the patient revoked consent",
  consent_expired: "Stopped: consent expired",
  no_consent: "None until the patient consents",
};

/** When the source syncs next, or why it does not. */
export function scheduleText(schedule: ScheduleState): string {
  if (schedule.kind === "scheduled") return schedule.at.toISOString();
  if (schedule.kind === "pending") return "Being scheduled (within a minute)";
  return STOPPED[schedule.reason];
}

/** A live subject's sources: per health system, its state, last sync, next scheduled sync and last error. */
export function LiveSourcesTable({ sources }: { sources: LiveSourceView[] }) {
  return (
    <Table caption="Sources of the subject">
      <thead>
        <tr>
          <Th>Health system</Th>
          <Th>Status</Th>
          <Th>Last synced</Th>
          <Th>Next sync</Th>
          <Th>Last error</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {sources.map((source) => (
          <tr key={source.id}>
            <Td>
              <span className="font-medium">{source.providerName}</span>
              <span className="block font-mono text-xs text-slate-600">{source.id}</span>
            </Td>
            <Td>
              <SyncStatusBadge status={source.syncStatus} />
            </Td>
            <Td className="whitespace-nowrap font-mono text-xs">{source.lastSyncedAt?.toISOString() ?? "—"}</Td>
            <Td className="text-xs">
              <span className={source.schedule.kind === "scheduled" ? "whitespace-nowrap font-mono" : undefined}>{scheduleText(source.schedule)}</span>
              {source.syncFailures > 0 ? <span className="block text-slate-600">backing off after {source.syncFailures === 1 ? "1 failed sync" : `${source.syncFailures} failed syncs in a row`}</span> : null}
            </Td>
            <Td className="min-w-48 text-xs">
              {source.lastError ? (
                <>
                  <code className="font-mono font-semibold text-red-800">{source.lastError.code}</code>
                  {source.lastError.message ? <span className="mt-0.5 block break-words text-slate-700">{source.lastError.message}</span> : null}
                </>
              ) : (
                "—"
              )}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
