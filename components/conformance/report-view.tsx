import { Badge, type BadgeTone } from "@/components/ui/badge";
import { PHASE_RULES, type Check, type PhaseEntry, type ReportResource } from "@/lib/conformance/schemas";

const PHASE_TEXT = Object.fromEntries(PHASE_RULES.map((rule) => [rule.phase, { title: rule.title, what: rule.does }])) as Record<PhaseEntry["name"], { title: string; what: string }>;

const CHECK_TONE: Record<Check["status"], BadgeTone> = { passed: "success", failed: "danger", inconclusive: "warning" };
const ENDED_BY: Record<NonNullable<PhaseEntry["endedBy"]>, string> = {
  completed: "completed",
  advanced: "advanced early",
  timed_out: "timed out",
  cancelled: "run cancelled",
  expired: "run expired",
};

const checksWord = (count: number) => `${count} ${count === 1 ? "check" : "checks"}`;

/** "A", "A and B", "A, B and C". */
const listed = (items: string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** The verdict in words, and its tone, for a run over or still going; a failed verdict names the checks that failed. */
export function verdictText(report: Pick<ReportResource, "status" | "verdict" | "checks">): { label: string; tone: BadgeTone; detail: string } {
  const failed = report.checks.filter((check) => check.status === "failed");
  const inconclusive = report.checks.filter((check) => check.status === "inconclusive");
  const total = report.checks.length;
  if (report.status === "open") {
    return { label: "In progress", tone: "info", detail: total === 0 ? "No check has been graded yet." : `${checksWord(total)} graded so far.` };
  }
  if (report.status === "cancelled") return { label: "Cancelled", tone: "neutral", detail: "The run was cancelled before it finished; no verdict." };
  if (report.status === "expired") return { label: "Expired", tone: "neutral", detail: "No Connect session was created within 60 minutes; no verdict." };
  if (report.verdict === "passed") return { label: "Passed", tone: "success", detail: total === 1 ? "The one check passed." : `All ${total} checks passed.` };
  if (report.verdict === "failed") {
    return { label: "Failed", tone: "danger", detail: `${failed.length} of ${checksWord(total)} failed: ${listed(failed.map((check) => check.title))}.` };
  }
  return {
    label: "Inconclusive",
    tone: "warning",
    detail: `${inconclusive.length} of ${checksWord(total)} could not be graded (${listed(inconclusive.map((check) => check.title))}): the run was advanced, or its integration did nothing, before they were observed.`,
  };
}

/** Failed checks first, then the inconclusive ones, then those that passed; phase order within each. */
const STATUS_ORDER: Record<Check["status"], number> = { failed: 0, inconclusive: 1, passed: 2 };
export const checksInReadingOrder = (checks: readonly Check[]) => [...checks].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);

const time = (value: string | null) => (value ? new Date(value).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }) + " UTC" : "—");

function duration(from: string | null, to: string | null): string | null {
  if (!from || !to) return null;
  const seconds = Math.round((Date.parse(to) - Date.parse(from)) / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** `waitedMs` -> "Waited (ms)": evidence keys read as labels. */
function evidenceLabel(key: string): string {
  const words = key.replace(/Ms$/, "").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  return key.endsWith("Ms") ? `${label} (ms)` : label;
}

function evidenceValue(value: Check["evidence"][string]): string {
  if (value === null) return "—";
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.map((item) => (item === null ? "—" : String(item))).join(", ");
  return String(value);
}

function CheckItem({ check }: { check: Check }) {
  return (
    <li className="break-inside-avoid rounded-lg border border-slate-200 bg-white p-4 print:border-slate-400">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={CHECK_TONE[check.status]}>{check.status}</Badge>
        <h3 className="font-semibold text-slate-900">{check.title}</h3>
      </div>
      <p className="mt-2 text-sm text-slate-700">{check.summary}</p>
      {check.fix ? (
        <p className="mt-2 rounded border border-red-200 bg-red-50 p-2 text-sm text-red-900">
          <span className="font-semibold">How to fix: </span>
          {check.fix}
        </p>
      ) : null}
      <h4 className="mt-3 text-sm font-medium text-slate-700">Evidence</h4>
      <dl className="mt-1 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[minmax(10rem,auto)_1fr]">
        {Object.entries(check.evidence).map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="text-slate-600">{evidenceLabel(key)}</dt>
            <dd className="break-all font-mono text-xs text-slate-900 sm:text-sm">{evidenceValue(value)}</dd>
          </div>
        ))}
      </dl>
    </li>
  );
}

/** The four phases in order: state, times, how long each took and how it ended. */
export function PhaseTimeline({ phases }: { phases: PhaseEntry[] }) {
  return (
    <ol className="mt-3 space-y-3 border-l-2 border-slate-200 pl-4">
      {phases.map((phase) => (
        <li key={phase.name} className="break-inside-avoid">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-slate-900">{PHASE_TEXT[phase.name].title}</span>
            <Badge tone={phase.status === "completed" ? "success" : phase.status === "active" ? "info" : "neutral"}>{phase.status}</Badge>
          </div>
          <p className="text-sm text-slate-600">{PHASE_TEXT[phase.name].what}</p>
          {phase.startedAt ? (
            <p className="text-xs text-slate-600">
              {time(phase.startedAt)}
              {phase.endedAt ? ` · ${duration(phase.startedAt, phase.endedAt)}` : ""}
              {phase.endedBy ? ` · ${ENDED_BY[phase.endedBy]}` : ""}
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** Each graded check with its evidence and, for a failure, how to fix it; failures first. */
export function CheckList({ checks }: { checks: Check[] }) {
  if (checks.length === 0) return <p className="mt-3 text-sm text-slate-700">No check has been graded yet.</p>;
  return (
    <ul className="mt-3 space-y-3">
      {checksInReadingOrder(checks).map((check) => (
        <CheckItem key={check.id} check={check} />
      ))}
    </ul>
  );
}

/** A report at a glance: verdict, scenario and sync mode, the phases' timeline, then each check with its evidence. */
export function ReportView({ report, jsonUrl }: { report: ReportResource; jsonUrl: string }) {
  const verdict = verdictText(report);
  return (
    <article className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12 print:max-w-none print:py-0">
      <p className="text-xs font-semibold uppercase tracking-wide text-teal-800">Chartkey · conformance report</p>
      <h1 className="mt-3 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{report.application.name}</h1>
      <section aria-labelledby="verdict-heading" className="mt-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6 print:border-slate-400">
        <h2 id="verdict-heading" className="sr-only">
          Verdict
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-lg font-semibold text-slate-900">Verdict:</span>
          <Badge tone={verdict.tone}>{verdict.label}</Badge>
        </div>
        <p className="mt-2 text-slate-700">{verdict.detail}</p>
        <dl className="mt-4 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-600">Scenario</dt>
            <dd className="font-medium text-slate-900">{report.scenario}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Sync mode</dt>
            <dd className="font-medium text-slate-900">{report.sync_mode}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Started</dt>
            <dd className="text-slate-900">{time(report.createdAt)}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Ended</dt>
            <dd className="text-slate-900">{report.endedAt ? time(report.endedAt) : "Still running"}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="timeline-heading" className="mt-8">
        <h2 id="timeline-heading" className="text-lg font-semibold text-slate-900">
          Timeline
        </h2>
        <PhaseTimeline phases={report.phases} />
      </section>

      <section aria-labelledby="checks-heading" className="mt-8">
        <h2 id="checks-heading" className="text-lg font-semibold text-slate-900">
          Checks
        </h2>
        <CheckList checks={report.checks} />
      </section>

      <footer className="mt-10 border-t border-slate-200 pt-4 text-xs text-slate-600">
        <p>
          Generated {time(report.generatedAt)}. This report is kept until {time(report.reportExpiresAt)}. It names the application only and carries no
          patient, session, key or record.
        </p>
        <p className="mt-1 print:hidden">
          Machine-readable:{" "}
          <a className="text-teal-800 underline" href={jsonUrl}>
            report JSON
          </a>
        </p>
      </footer>
    </article>
  );
}
