import type { JsonSchema, OpenApiOperation } from "@/lib/openapi";
import type { OpenApiMethod as HttpMethod } from "@/lib/openapi";
import { BodySchema, TypeLabel } from "./schema-view";

const METHOD_STYLE: Record<HttpMethod, string> = {
  get: "bg-sky-100 text-sky-800",
  post: "bg-emerald-100 text-emerald-800",
  put: "bg-amber-100 text-amber-800",
  patch: "bg-amber-100 text-amber-800",
  delete: "bg-rose-100 text-rose-800",
};

export function operationAnchor(documentKey: string, operationId: string): string {
  return `${documentKey}-${operationId}`;
}

type Props = {
  documentKey: string;
  basePath: string;
  path: string;
  method: HttpMethod;
  operation: OpenApiOperation;
  requiresAuth: boolean;
  schemas: Record<string, JsonSchema>;
};

export function OperationCard({ documentKey, basePath, path, method, operation, requiresAuth, schemas }: Props) {
  const responses = Object.entries(operation.responses);
  const successes = responses.filter(([status]) => status.startsWith("2") || !operation.responses[status]?.["x-error-codes"]);
  const errors = responses.filter(([, response]) => response["x-error-codes"]);
  return (
    <article id={operationAnchor(documentKey, operation.operationId)} className="scroll-mt-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <header className="flex flex-wrap items-center gap-3">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_STYLE[method]}`}>{method}</span>
        <code className="font-mono text-sm font-semibold break-all">
          <span className="text-slate-400">{basePath}</span>
          {path}
        </code>
        <span className="text-xs text-slate-500">{requiresAuth ? "API key required" : "No key"}</span>
      </header>
      <h4 className="mt-3 font-semibold">{operation.summary}</h4>
      {operation.description && <p className="mt-1 text-sm text-slate-600">{operation.description}</p>}

      {operation.parameters && operation.parameters.length > 0 && (
        <section className="mt-4">
          <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Parameters</h5>
          <div className="mt-2 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-slate-500">
                <tr>
                  <th className="py-1 pr-3 font-medium">Name</th>
                  <th className="py-1 pr-3 font-medium">In</th>
                  <th className="py-1 pr-3 font-medium">Type</th>
                  <th className="py-1 font-medium">Description</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 align-top">
                {operation.parameters.map((parameter) => (
                  <tr key={`${parameter.in}-${parameter.name}`}>
                    <td className="py-1.5 pr-3">
                      <code className="font-semibold">{parameter.name}</code>
                      {parameter.required && <span className="ml-1 text-xs text-rose-700">required</span>}
                    </td>
                    <td className="py-1.5 pr-3 text-slate-600">{parameter.in}</td>
                    <td className="py-1.5 pr-3">
                      <TypeLabel schema={parameter.schema} documentKey={documentKey} />
                    </td>
                    <td className="py-1.5 text-slate-600">
                      {parameter.description}
                      {parameter.example !== undefined && (
                        <span className="block text-xs text-slate-500">
                          Example: <code>{String(parameter.example)}</code>
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      {operation.requestBody && (
        <section className="mt-4">
          <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Request body</h5>
          <p className="mt-1 text-sm text-slate-600">{operation.requestBody.description}</p>
          {Object.entries(operation.requestBody.content).map(([type, media]) => (
            <div key={type} className="mt-2 rounded border border-slate-100 p-3">
              <p className="mb-1 font-mono text-xs text-slate-500">{type}</p>
              <BodySchema schema={media.schema} documentKey={documentKey} schemas={schemas} />
              <Example value={media.example} />
            </div>
          ))}
        </section>
      )}

      <section className="mt-4">
        <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Responses</h5>
        {successes.map(([status, response]) => (
          <div key={status} className="mt-2 rounded border border-slate-100 p-3">
            <p className="text-sm">
              <span className={`font-mono font-semibold ${status.startsWith("2") ? "text-emerald-700" : "text-amber-700"}`}>{status}</span>{" "}
              <span className="text-slate-600">{response.description}</span>
              {Object.keys(response.content).map((type) => (
                <span key={type} className="ml-2 font-mono text-xs text-slate-500">
                  {type}
                </span>
              ))}
            </p>
            {Object.values(response.content).map((media, index) => (
              <div key={index} className="mt-2">
                <BodySchema schema={media.schema} documentKey={documentKey} schemas={schemas} />
                <Example value={media.example} />
              </div>
            ))}
          </div>
        ))}
        {errors.length > 0 && (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-slate-500">
                <tr>
                  <th className="py-1 pr-3 font-medium">Status</th>
                  <th className="py-1 font-medium">Error codes</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {errors.map(([status, response]) => (
                  <tr key={status}>
                    <td className="py-1.5 pr-3 font-mono font-semibold text-rose-700">{status}</td>
                    <td className="py-1.5">
                      {(response["x-error-codes"] ?? []).map((code) => (
                        <code key={code} className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs">
                          {code}
                        </code>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </article>
  );
}

/** A request or response example from the document, as formatted JSON. */
function Example({ value }: { value: unknown }) {
  if (value === undefined) return null;
  return (
    <details className="mt-2">
      <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">Example</summary>
      <pre className="mt-1 overflow-x-auto rounded bg-slate-50 p-2 font-mono text-xs text-slate-700">{JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}
