import { CHECK_RULES, PHASE_RULES } from "@/lib/conformance/schemas";

/**
 * The rules a run follows, stated before it starts: how each phase ends and how each check is graded, windows and
 * allowances included. The same words as the API reference (lib/conformance/rules.ts).
 */
export function ConformanceRules({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="space-y-6 text-sm text-slate-700">
      <section aria-labelledby="conformance-phases">
        <Heading id="conformance-phases" className="text-base font-semibold text-slate-900">
          How a run proceeds
        </Heading>
        <ol className="mt-2 list-decimal space-y-3 pl-5">
          {PHASE_RULES.map((phase) => (
            <li key={phase.phase}>
              <span className="font-medium text-slate-900">{phase.title}</span> <code className="text-xs text-slate-600">{phase.phase}</code>
              <p className="mt-1">{phase.does}</p>
              <p className="mt-1">
                <span className="font-medium text-slate-900">Ends: </span>
                {phase.ends}
              </p>
            </li>
          ))}
        </ol>
        <p className="mt-3">No phase waits for your integration to go quiet; polls of runs and sessions are never forced or graded.</p>
      </section>
      <section aria-labelledby="conformance-checks">
        <Heading id="conformance-checks" className="text-base font-semibold text-slate-900">
          How each check is graded
        </Heading>
        <dl className="mt-2 space-y-3">
          {CHECK_RULES.map((check) => (
            <div key={check.id}>
              <dt>
                <span className="font-medium text-slate-900">{check.title}</span> <code className="break-all text-xs text-slate-600">{check.id}</code>
              </dt>
              <dd className="mt-1">{check.rule}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
