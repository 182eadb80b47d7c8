import Link from "next/link";
import { DATA_NOTICE, defaultScenario, demoPath, hasPatient, patientLinks } from "@/lib/demo";

const CARD = "rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-teal-600";

export default function HomePage() {
  const scenario = defaultScenario();
  const examples = [
    demoPath("scenarios"),
    ...(hasPatient(scenario) ? [`${patientLinks(scenario).records}?categories=medications,allergies`] : []),
    `${demoPath("fhir", "Condition")}${hasPatient(scenario) ? `?patient=${scenario.subject}` : ""}`,
  ];
  return (
    <main className="mx-auto max-w-4xl px-6 py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-teal-700">Chartkey</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Health records your patients choose to share</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-600">
        Patients authorize in a hosted Connect flow; Chartkey imports their records from health-system FHIR sources,
        normalizes them into ten categories and serves them to your application under a consent receipt they can
        revoke.
      </p>
      <nav aria-label="Get started" className="mt-10 grid gap-4 sm:grid-cols-3">
        <Link className={CARD} href="/demo">
          <span className="font-semibold">Keyless demo API</span>
          <span className="mt-1 block text-sm text-slate-600">Fictional patients and their records, no account needed.</span>
        </Link>
        <Link className={CARD} href="/docs">
          <span className="font-semibold">API reference</span>
          <span className="mt-1 block text-sm text-slate-600">Every operation, field and error code.</span>
        </Link>
        <Link className={CARD} href="/dashboard">
          <span className="font-semibold">Dashboard</span>
          <span className="mt-1 block text-sm text-slate-600">Applications, keys and webhooks.</span>
        </Link>
      </nav>
      <section aria-labelledby="try-demo" className="mt-12">
        <h2 id="try-demo" className="text-lg font-semibold">
          Try the demo
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          No key needed. The default scenario is <code>{scenario.id}</code>: {scenario.title.toLowerCase()}.
        </p>
        <ul className="mt-3 space-y-2">
          {examples.map((example) => (
            <li key={example}>
              <a className="block overflow-x-auto rounded bg-slate-900 px-4 py-2 font-mono text-sm text-slate-100" href={example}>
                GET {example}
              </a>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-xs text-slate-500">{DATA_NOTICE}</p>
      </section>
    </main>
  );
}
