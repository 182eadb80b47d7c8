import type { Metadata } from "next";
import Link from "next/link";
import { AgentCredentialsGuide, McpGuide } from "@/components/docs/agent-guides";
import { ApiReference } from "@/components/docs/api-reference";
import { dashboardOrigin } from "@/lib/dashboard";
import { demoOpenApiDocument, platformOpenApiDocument, toolCatalog } from "@/lib/openapi";

export const metadata: Metadata = { title: "API reference" };

export default async function DocsPage() {
  // Addresses in the copyable examples are the ones this page was reached at.
  const origin = await dashboardOrigin();
  return (
    <main className="mx-auto max-w-5xl px-6 py-12">
      <p className="text-sm font-semibold uppercase tracking-wide text-teal-700">
        <Link href="/">Chartkey</Link>
      </p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">API reference</h1>
      <p className="mt-3 max-w-3xl text-slate-600">
        Generated from the same zod schemas the API validates and answers with. Errors always carry the envelope{" "}
        <code className="rounded bg-slate-100 px-1">{"{ error: { type, code, message, requestId } }"}</code>; branch on{" "}
        <code>code</code>.
      </p>
      <nav aria-label="Documents" className="mt-6 flex flex-wrap gap-4 text-sm">
        <a className="rounded border border-slate-200 bg-white px-3 py-1.5 hover:border-teal-600" href="#platform">
          Platform API <span className="font-mono text-slate-500">/api/v1</span>
        </a>
        <a className="rounded border border-slate-200 bg-white px-3 py-1.5 hover:border-teal-600" href="#demo">
          Demo API <span className="font-mono text-slate-500">/demo/v1</span>
        </a>
        <a className="rounded border border-slate-200 bg-white px-3 py-1.5 hover:border-teal-600" href="#agent-credentials">
          Agent credentials
        </a>
        <a className="rounded border border-slate-200 bg-white px-3 py-1.5 hover:border-teal-600" href="#mcp">
          MCP servers
        </a>
      </nav>
      <section aria-labelledby="conformance-guide" className="mt-8 max-w-3xl rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
        <h2 id="conformance-guide" className="text-base font-semibold text-slate-900">
          Before go-live: conformance runs
        </h2>
        <p className="mt-2">
          A <a className="text-teal-800 underline" href="#platform-startConformanceRun">conformance run</a> grades your integration against the sandbox: a Connect
          session, forced 429s to retry after <code>Retry-After</code>, a consent revocation to stop on, webhook probes to verify, and for continuous sync the
          change feed read from the saved <code>changeCursor</code>. Its report link can be shared with a health system or a reviewer.
        </p>
        <p className="mt-2">
          A reference integration that passes every check is kept in the repository at <code>examples/conformance-reference/</code> (server-side TypeScript;
          its README says how to run it against a run with <code>npx tsx examples/conformance-reference/main.ts</code>).
        </p>
      </section>
      <div className="mt-12 space-y-20">
        <AgentCredentialsGuide origin={origin} />
        <McpGuide origin={origin} platformTools={toolCatalog("platform").tools} demoTools={toolCatalog("demo").tools} />
        <ApiReference document={platformOpenApiDocument()} documentKey="platform" jsonHref="/api/v1/openapi.json" />
        <ApiReference document={demoOpenApiDocument()} documentKey="demo" jsonHref="/demo/v1/openapi.json" />
      </div>
    </main>
  );
}
