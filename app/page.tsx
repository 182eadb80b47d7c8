import Link from "next/link";

export default function HomePage() {
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
        <Link className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-teal-600" href="/demo/v1">
          <span className="font-semibold">Keyless demo API</span>
          <span className="mt-1 block text-sm text-slate-600">Fictional patients, no account needed.</span>
        </Link>
        <Link className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-teal-600" href="/docs">
          <span className="font-semibold">API reference</span>
          <span className="mt-1 block text-sm text-slate-600">Every operation, field and error code.</span>
        </Link>
        <Link className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-teal-600" href="/dashboard">
          <span className="font-semibold">Dashboard</span>
          <span className="mt-1 block text-sm text-slate-600">Applications, keys and webhooks.</span>
        </Link>
      </nav>
    </main>
  );
}
