import type { Metadata } from "next";
import Link from "next/link";
import { DemoHeader } from "@/components/demo/demo-header";
import { DemoLinks } from "@/components/demo/demo-links";
import { categoryViews, demoMcpConfig, patientView, scenarioJson, scenarioOutcome } from "@/components/demo/demo-view";
import { Badge } from "@/components/ui/badge";
import { CodeBlock } from "@/components/ui/code-block";
import { dashboardOrigin } from "@/lib/dashboard";
import { demoPath, hasPatient } from "@/lib/demo";
import { SCENARIOS, type Scenario } from "@/lib/sandbox";

export const metadata: Metadata = {
  title: "Keyless demo",
  description: "The keyless demo API's scenarios and fictional patients, their records by category, and its raw JSON and FHIR answers.",
};

const KIND_LABEL: Record<Scenario["kind"], string> = { record: "Records", behavior: "Behavior", session: "Connect outcome" };

function ScenarioCard({ scenario }: { scenario: Scenario }) {
  const headingId = `scenario-${scenario.id}`;
  const outcome = scenarioOutcome(scenario);
  const patient = hasPatient(scenario) ? patientView(scenario) : null;
  const categories = hasPatient(scenario) ? categoryViews(scenario, 0) : [];
  return (
    <li>
      <article aria-labelledby={headingId} className="h-full rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <div className="flex flex-wrap items-center gap-2">
          <Badge tone={scenario.kind === "record" ? "info" : scenario.kind === "behavior" ? "warning" : "neutral"}>{KIND_LABEL[scenario.kind]}</Badge>
          <code className="break-all text-xs text-slate-600">{scenario.id}</code>
        </div>
        <h3 id={headingId} className="mt-2 text-lg font-semibold text-slate-900">
          {scenario.title}
        </h3>
        <p className="mt-1 text-sm text-slate-700">{scenario.description}</p>
        {patient ? (
          <div className="mt-4 border-t border-slate-100 pt-3">
            <p className="text-sm text-slate-800">
              <span className="font-semibold">{patient.name}</span>
              {patient.birthDate ? <span> · born {patient.birthDate}</span> : null}
              {patient.gender ? <span> · {patient.gender}</span> : null}
            </p>
            <ul aria-label={`Records of ${patient.name} by category`} className="mt-2 flex flex-wrap gap-1.5">
              {categories.map((view) => (
                <li key={view.category}>
                  <Link className="inline-block rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-teal-50" href={`${patient.page}#${view.category}`}>
                    {view.label} <span className="font-semibold">{view.total.toLocaleString("en-US")}</span>
                  </Link>
                </li>
              ))}
            </ul>
            {patient.withheld.length > 0 ? (
              <p className="mt-2 text-xs text-slate-600">Not shared under this consent: {patient.withheld.map((entry) => entry.label).join(", ")}.</p>
            ) : null}
            <p className="mt-3">
              <Link className="inline-flex min-h-10 items-center rounded-md bg-teal-700 px-3 text-sm font-semibold text-white hover:bg-teal-800" href={patient.page}>
                See {patient.name}&apos;s records
              </Link>
            </p>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              <DemoLinks kind="json" label={`Raw JSON of ${patient.name}`} links={[...patient.json.slice(0, 1), { label: "Scenario (JSON)", href: scenarioJson(scenario) }]} />
              <DemoLinks kind="fhir" label={`FHIR resources of ${patient.name}`} links={patient.fhir} />
            </div>
          </div>
        ) : (
          <div className="mt-4 border-t border-slate-100 pt-3">
            <p className="text-sm text-slate-700">{outcome}</p>
            <div className="mt-3">
              <DemoLinks kind="json" label={`Raw JSON of ${scenario.title}`} links={[{ label: "Scenario (JSON)", href: scenarioJson(scenario) }]} />
            </div>
          </div>
        )}
      </article>
    </li>
  );
}

export default async function DemoPage() {
  const origin = await dashboardOrigin();
  const connectExample = `curl -X POST ${origin}${demoPath("connect", "sessions")} \\\n  -H "Content-Type: application/json" \\\n  -d '{"external_user_id":"user-123","categories":["medications","labs"],"scenario":"connect-cancelled"}'`;
  return (
    <>
      <DemoHeader trail={[{ href: "/", label: "Chartkey" }]} title="Keyless demo">
        <p className="mt-2 max-w-3xl text-sm text-slate-700 sm:text-base">
          Fictional patients and the scenarios the sandbox simulates, served by a read-only API that needs no key. Browse each patient&apos;s records by
          category here, or open the same data as the API answers it: normalized JSON and FHIR R4.
        </p>
        <ul aria-label="The demo API" className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <li>
            <a className="text-teal-800 underline" href={demoPath()}>
              API index (JSON)
            </a>
          </li>
          <li>
            <a className="text-teal-800 underline" href={demoPath("fhir", "metadata")}>
              FHIR CapabilityStatement
            </a>
          </li>
          <li>
            <a className="text-teal-800 underline" href="/docs#demo">
              Demo API reference
            </a>
          </li>
        </ul>
      </DemoHeader>
      <main className="mx-auto max-w-5xl space-y-12 px-4 py-8 sm:px-6">
        <section aria-labelledby="scenarios">
          <h2 id="scenarios" className="text-xl font-bold text-slate-900">
            Scenarios and their patients
          </h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-700">
            {SCENARIOS.length} scenarios: record scenarios hold a patient&apos;s chart, behavior scenarios also simulate what an application must handle
            (a rate limit, a revoked or partial consent, an unavailable health system), and Connect outcomes end the session without a patient.
          </p>
          <ul className="mt-4 grid gap-4 md:grid-cols-2">
            {SCENARIOS.map((scenario) => (
              <ScenarioCard key={scenario.id} scenario={scenario} />
            ))}
          </ul>
        </section>

        <section aria-labelledby="connect" className="max-w-3xl">
          <h2 id="connect" className="text-xl font-bold text-slate-900">
            Simulate a Connect session
          </h2>
          <p className="mt-1 text-sm text-slate-700">Computes what a Connect session with a scenario ends with; nothing is stored.</p>
          <div className="mt-3">
            <CodeBlock what="Command" label="curl" code={connectExample} />
          </div>
        </section>

        <section aria-labelledby="mcp" className="max-w-3xl">
          <h2 id="mcp" className="text-xl font-bold text-slate-900">
            Use the demo from an AI assistant
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            The demo&apos;s MCP server at <code className="break-all">{`${origin}${demoPath("mcp")}`}</code> offers the same reads as tools, with no key
            (stateless Streamable HTTP). Add it to an MCP client such as Claude Desktop, Cursor or VS Code:
          </p>
          <div className="mt-3">
            <CodeBlock what="MCP client configuration" label="MCP client configuration" code={demoMcpConfig(origin)} />
          </div>
          <p className="mt-2 text-sm text-slate-700">
            The{" "}
            <a className="text-teal-800 underline" href="/docs/guides/agents-and-mcp#mcp">
              agents guide
            </a>{" "}
            lists its tools.
          </p>
        </section>
      </main>
    </>
  );
}
