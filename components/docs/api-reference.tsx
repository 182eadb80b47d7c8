import type { OpenApiDocument, OpenApiOperation } from "@/lib/openapi";
import type { OpenApiMethod as HttpMethod } from "@/lib/openapi";
import { OperationCard, operationAnchor } from "./operation-card";
import { schemaAnchor, SchemaView } from "./schema-view";

type Located = { path: string; method: HttpMethod; operation: OpenApiOperation };

function operationsOf(document: OpenApiDocument): Located[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method: method as HttpMethod, operation: operation as OpenApiOperation })),
  );
}

/** One OpenAPI document as a reference section: operations grouped by tag, then the shared schemas. */
export function ApiReference({ document, documentKey, jsonHref }: { document: OpenApiDocument; documentKey: string; jsonHref: string }) {
  const operations = operationsOf(document);
  const basePath = document.servers[0]?.url ?? "";
  const authScheme = Object.values(document.components.securitySchemes ?? {})[0];
  return (
    <section id={documentKey} aria-labelledby={`${documentKey}-title`} className="scroll-mt-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${documentKey}-title`} className="text-2xl font-bold tracking-tight">
          {document.info.title}
        </h2>
        <a className="text-sm text-teal-700 underline" href={jsonHref}>
          OpenAPI 3.1 JSON
        </a>
      </div>
      <p className="mt-2 max-w-3xl text-slate-600">{document.info.description}</p>
      <dl className="mt-3 grid max-w-3xl grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium text-slate-500">Base path</dt>
        <dd className="font-mono">{basePath}</dd>
        <dt className="font-medium text-slate-500">Authentication</dt>
        <dd>{authScheme ? `Bearer token. ${authScheme.description ?? ""}` : "None: no key needed."}</dd>
        <dt className="font-medium text-slate-500">Version</dt>
        <dd className="font-mono">{document.info.version}</dd>
      </dl>

      {document.tags.map((tag) => {
        const tagged = operations.filter((entry) => entry.operation.tags.includes(tag.name));
        if (tagged.length === 0) return null;
        return (
          <div key={tag.name} className="mt-10">
            <h3 className="text-lg font-semibold">{tag.name}</h3>
            <p className="text-sm text-slate-600">{tag.description}</p>
            <ul className="mt-2 flex flex-wrap gap-2 text-xs">
              {tagged.map(({ operation }) => (
                <li key={operation.operationId}>
                  <a className="text-teal-700 underline" href={`#${operationAnchor(documentKey, operation.operationId)}`}>
                    {operation.summary}
                  </a>
                </li>
              ))}
            </ul>
            <div className="mt-4 space-y-6">
              {tagged.map(({ path, method, operation }) => (
                <OperationCard
                  key={operation.operationId}
                  documentKey={documentKey}
                  basePath={basePath}
                  path={path}
                  method={method}
                  operation={operation}
                  requiresAuth={Boolean(document.security?.length) && operation.security?.length !== 0}
                  schemas={document.components.schemas}
                />
              ))}
            </div>
          </div>
        );
      })}

      <div className="mt-10">
        <h3 className="text-lg font-semibold">Schemas</h3>
        <div className="mt-3 space-y-2">
          {Object.entries(document.components.schemas)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([name, schema]) => (
              <details key={name} id={schemaAnchor(documentKey, name)} className="scroll-mt-6 rounded border border-slate-200 bg-white p-3">
                <summary className="cursor-pointer font-mono text-sm font-semibold">
                  {name}
                  {typeof schema.description === "string" && (
                    <span className="ml-2 font-sans font-normal text-slate-500">{schema.description}</span>
                  )}
                </summary>
                <div className="mt-2">
                  <SchemaView schema={schema} documentKey={documentKey} />
                </div>
              </details>
            ))}
        </div>
      </div>
    </section>
  );
}
