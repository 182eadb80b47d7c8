import { latestReports } from "@/lib/connect";
import { db } from "@/lib/db";
import { idPattern } from "@/lib/ids";
import { presentFidelityReport, type FidelityReport } from "@/lib/records";
import { findScenario, type SandboxControl } from "@/lib/sandbox";
import { listSandboxSubjects, type SandboxSubject } from "@/lib/simulation";

const SUBJECT_ID = idPattern("u_");

/** A sandbox subject as the dashboard shows it: lib/simulation's view plus its simulation and the events it supports. */
export type SandboxSubjectView = SandboxSubject & {
  scenarioTitle: string | null;
  /** True for a synthetic patient this application's simulation created; false for one connected through the hosted flow. */
  createdBySimulation: boolean;
  /** The latest session that connected it, and its simulation state when simulated. */
  sessionId: string | null;
  simulation: { state: string; failureCode: string | null } | null;
  /** The sandbox events the subject's scenario supports (POST /sandbox/subjects/{subject}/events); none unless simulated. */
  controls: SandboxControl[];
  /** Live records over all categories. */
  recordTotal: number;
};

/**
 * The application's sandbox subjects (never another application's, never live), newest first, each with what the
 * sandbox pages show beside lib/simulation's view; `subjectId` narrows it to one.
 */
export async function sandboxSubjectViews(applicationId: string, options: { subjectId?: string; limit?: number } = {}): Promise<SandboxSubjectView[]> {
  const subjects = await listSandboxSubjects(applicationId, options);
  const ids = subjects.map((subject) => subject.id);
  const [simulated, sessions] = await Promise.all([
    db().subject.findMany({ where: { id: { in: ids }, patient: { syntheticForApplicationId: applicationId } }, select: { id: true } }),
    db().connectSession.findMany({
      where: { applicationId, subjectId: { in: ids } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true, subjectId: true, simulationState: true, simulationFailureCode: true },
    }),
  ]);
  const simulatedIds = new Set(simulated.map((row) => row.id));
  return subjects.map((subject) => {
    const createdBySimulation = simulatedIds.has(subject.id);
    const scenario = createdBySimulation ? findScenario(subject.scenario ?? "") : undefined;
    const session = sessions.find((row) => row.subjectId === subject.id);
    return {
      ...subject,
      scenarioTitle: scenario?.title ?? null,
      createdBySimulation,
      sessionId: session?.id ?? null,
      simulation: session?.simulationState ? { state: session.simulationState, failureCode: session.simulationFailureCode } : null,
      controls: scenario ? [...scenario.controls] : [],
      recordTotal: Object.values(subject.recordCounts).reduce((sum, count) => sum + (count ?? 0), 0),
    };
  });
}

/**
 * One sandbox subject of the application as the dashboard shows it, with each source's fidelity report (its latest
 * completed import's: what the health system's data yielded and did not), or null when it is not one.
 */
export async function sandboxSubjectView(applicationId: string, subjectId: string): Promise<(SandboxSubjectView & { reports: Map<string, FidelityReport | null> }) | null> {
  // A malformed id (a NUL byte would make PostgreSQL refuse the query) names no subject.
  if (!SUBJECT_ID.test(subjectId)) return null;
  const [view] = await sandboxSubjectViews(applicationId, { subjectId, limit: 1 });
  if (!view) return null;
  const imports = await latestReports(view.sources.map((source) => source.id));
  return { ...view, reports: new Map(view.sources.map((source) => [source.id, presentFidelityReport(imports.get(source.id))])) };
}
