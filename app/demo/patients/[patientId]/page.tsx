import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DemoHeader } from "@/components/demo/demo-header";
import { DemoLinks } from "@/components/demo/demo-links";
import { DemoRecords } from "@/components/demo/demo-records";
import { categoryViews, patientView } from "@/components/demo/demo-view";
import { patientScenarioByPatientId } from "@/lib/demo";

type Props = { params: Promise<{ patientId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const scenario = patientScenarioByPatientId((await params).patientId);
  return { title: scenario ? `${patientView(scenario).name} · Keyless demo` : "Keyless demo" };
}

/** One synthetic patient of the keyless demo: who they are, their records by category, and the API's raw answers. */
export default async function DemoPatientPage({ params }: Props) {
  const scenario = patientScenarioByPatientId((await params).patientId);
  if (!scenario) notFound();
  const patient = patientView(scenario);
  const categories = categoryViews(scenario);
  return (
    <>
      <DemoHeader
        trail={[
          { href: "/", label: "Chartkey" },
          { href: "/demo", label: "Keyless demo" },
        ]}
        title={patient.name}
      >
        <p className="mt-1 text-sm text-slate-700">
          {[patient.birthDate ? `Born ${patient.birthDate}` : null, patient.gender, `scenario ${scenario.title.toLowerCase()}`].filter(Boolean).join(" · ")}
        </p>
      </DemoHeader>
      <main className="mx-auto max-w-5xl space-y-8 px-4 py-6 sm:px-6">
        {patient.behaviorNote ? (
          <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
            {patient.behaviorNote}
          </p>
        ) : null}
        <section aria-labelledby="raw" className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2">
          <h2 id="raw" className="text-base font-semibold text-slate-900 sm:col-span-2">
            The same data from the API
          </h2>
          <DemoLinks kind="json" label="Raw JSON" links={patient.json} />
          <DemoLinks kind="fhir" label="FHIR R4" links={patient.fhir} />
        </section>
        <nav aria-label="Categories">
          <ul className="flex flex-wrap gap-1.5">
            {categories.map((view) => (
              <li key={view.category}>
                <a className="inline-block rounded-full bg-white px-2.5 py-1 text-sm text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-teal-50" href={`#${view.category}`}>
                  {view.label} <span className="font-semibold">{view.total.toLocaleString("en-US")}</span>
                </a>
              </li>
            ))}
          </ul>
          {patient.withheld.length > 0 ? (
            <p className="mt-2 text-sm text-slate-700">
              Not shared under this scenario&apos;s consent, so not shown: {patient.withheld.map((entry) => entry.label).join(", ")}.
            </p>
          ) : null}
        </nav>
        {categories.map((view) => (
          <DemoRecords key={view.category} view={view} patientName={patient.name} />
        ))}
      </main>
    </>
  );
}
