import { CodeBlock } from "@/components/ui/code-block";
import { Table, Td, Th } from "@/components/ui/table";
import type { ToolSummary } from "@/lib/openapi";

type GuideProps = { origin: string };

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="space-y-4">
      <h2 id={`${id}-title`} className="text-2xl font-bold tracking-tight text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Delegated credentials, worked through: issue one for a subject, let the agent read with it, revoke it. */
export function AgentCredentialsGuide({ origin }: GuideProps) {
  const api = `${origin}/api/v1`;
  return (
    <Section id="agent-credentials" title="Agent credentials">
      <p className="max-w-3xl text-slate-700">
        Give an AI agent a short-lived credential that reads one consented subject, some categories and some reads, for at most an hour, instead of your
        API key. It never approves consent, and it ends early when you revoke it, when its parent key is revoked, or when the patient&apos;s receipt ends.
        Every request it makes is in your usage log with its purpose: the dashboard shows who read what, and why.
      </p>
      <ol className="max-w-3xl list-decimal space-y-4 pl-5 text-slate-700">
        <li>
          <p className="mb-2">Issue it from your server with the application key (the token is shown only in this answer):</p>
          <CodeBlock
            what="Command"
            code={`curl -X POST ${api}/agent-credentials \\\n  -H "Authorization: Bearer $CK_SANDBOX_KEY" -H "Content-Type: application/json" \\\n  -d '{"subject":"u_...","categories":["medications","labs"],"purpose":"Summarize current medications before the visit","durationSeconds":900,"operations":["get_health_record","get_category_records"]}'`}
          />
        </li>
        <li>
          <p className="mb-2">
            The agent reads with its token, the <code>ck_agent_</code> value, as a bearer token: only its subject, categories and operations
            (<code>get_health_record</code>, <code>get_category_records</code>, <code>get_record_changes</code>, <code>get_consent_receipt</code>; all four when
            omitted).
          </p>
          <CodeBlock what="Command" code={`curl ${api}/users/u_.../records -H "Authorization: Bearer $CK_AGENT_TOKEN"`} />
        </li>
        <li>
          <p className="mb-2">Revoke it when the task is done (or let it expire):</p>
          <CodeBlock what="Command" code={`curl -X DELETE ${api}/agent-credentials/cred_... -H "Authorization: Bearer $CK_SANDBOX_KEY"`} />
        </li>
      </ol>
      <Table caption="What a delegated credential is answered">
        <thead>
          <tr>
            <Th>Status</Th>
            <Th>Code</Th>
            <Th>When</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {[
            ["401", "invalid_agent_token", "unknown, expired or revoked; its parent key revoked or the receipt ended; or sent to the MCP server"],
            ["403", "operation_forbidden", "an operation it was not granted, or one only a key may call (sessions, credentials, users, sandbox, conformance)"],
            ["403", "subject_mismatch", "another subject"],
            ["403", "credential_scope_exceeded", "a category or receipt it does not cover"],
            ["403", "authority_changed", "the receipt or the parent key changed while the read ran; retry"],
            ["429", "rate_limited", "all of the application's credentials together are over their limit (300 a minute by default)"],
            ["503", "authority_unavailable", "its authority cannot be checked now; retry with backoff"],
          ].map(([status, code, when]) => (
            <tr key={code}>
              <Td className="font-mono text-xs">{status}</Td>
              <Td className="font-mono text-xs">{code}</Td>
              <Td>{when}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Section>
  );
}

function mcpConfig(name: string, url: string, headers?: Record<string, string>): string {
  return JSON.stringify({ mcpServers: { [name]: { type: "http", url, ...(headers ? { headers } : {}) } } }, null, 2);
}

/** The two MCP servers: addresses, a client configuration for each, and their tools from the declarations. */
export function McpGuide({ origin, platformTools, demoTools }: GuideProps & { platformTools: ToolSummary[]; demoTools: ToolSummary[] }) {
  const platform = `${origin}/api/v1/mcp`;
  const demo = `${origin}/demo/v1/mcp`;
  return (
    <Section id="mcp" title="MCP servers">
      <p className="max-w-3xl text-slate-700">
        Assistants reach the platform through the Model Context Protocol (stateless Streamable HTTP). Each tool is one REST operation: the same inputs,
        the same answer as structured content, the same error codes (a tool error&apos;s text is the error envelope). A bad key or a spent limit fails
        the whole request with a JSON-RPC error and HTTP 401 or 429.
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="min-w-0 space-y-2">
          <h3 className="font-semibold text-slate-900">Authenticated</h3>
          <p className="text-sm text-slate-700">
            <code className="break-all">{platform}</code>, with the application key as bearer. Each tool call counts as a request of the key; delegated
            credentials are for the REST API and are refused here.
          </p>
          <CodeBlock what="Configuration" label="Client configuration" code={mcpConfig("chartkey", platform, { Authorization: "Bearer ${CK_SANDBOX_KEY}" })} />
        </div>
        <div className="min-w-0 space-y-2">
          <h3 className="font-semibold text-slate-900">Demo</h3>
          <p className="text-sm text-slate-700">
            <code className="break-all">{demo}</code>, keyless and read-only over the demo&apos;s fictional patients, open to browsers, under the demo&apos;s
            per-address limit.
          </p>
          <CodeBlock what="Configuration" label="Client configuration" code={mcpConfig("chartkey-demo", demo)} />
        </div>
      </div>
      <ToolTable caption="Tools of the authenticated MCP server" tools={platformTools} />
      <ToolTable caption="Tools of the demo MCP server" tools={demoTools} />
    </Section>
  );
}

function ToolTable({ caption, tools }: { caption: string; tools: ToolSummary[] }) {
  return (
    <div className="space-y-2">
      <h3 className="font-semibold text-slate-900">{caption}</h3>
      <Table caption={caption}>
        <thead>
          <tr>
            <Th>Tool</Th>
            <Th>REST operation</Th>
            <Th>What it does</Th>
            <Th>Kind</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {tools.map((tool) => (
            <tr key={tool.name}>
              <Td className="font-mono text-xs">{tool.name}</Td>
              <Td className="whitespace-nowrap font-mono text-xs">{tool.operation}</Td>
              <Td>{tool.summary}</Td>
              <Td className="text-xs">{tool.readOnly ? "read-only" : "write"}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
